import { describe, expect, it } from "vitest";
import type { Command } from "../editor/command-registry.js";
import { getRunLockedCommands } from "./get-run-locked-commands.js";

type Context = { running: boolean; hasSelection: boolean };

const command = (
  name: string,
  undoable: boolean,
  isEnabled?: (context: Context) => boolean,
): Command<Context> => ({
  name,
  label: name,
  undoable,
  perform: () => undefined,
  ...(isEnabled ? { isEnabled } : {}),
});

describe("getRunLockedCommands", () => {
  const commands = getRunLockedCommands<Context>({
    commands: [
      command("delete", true, (context) => context.hasSelection),
      command("undo", false),
      command("fit-view", false),
      command("save", false),
    ],
    isRunShown: (context) => context.running,
  });
  const enabled = (context: Context) =>
    commands.filter((item) => item.isEnabled?.(context) ?? true).map((item) => item.name);

  it("switches design edits off while a run is shown", () => {
    expect(enabled({ running: true, hasSelection: true })).toEqual(["fit-view", "save"]);
  });

  it("leaves them as they were otherwise", () => {
    expect(enabled({ running: false, hasSelection: false })).toEqual(["undo", "fit-view", "save"]);
    expect(enabled({ running: false, hasSelection: true })).toEqual(["delete", "undo", "fit-view", "save"]);
  });
});
