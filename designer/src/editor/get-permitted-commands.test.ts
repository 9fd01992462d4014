import { describe, expect, it } from "vitest";
import { createEditorCommands } from "../commands/editor-commands.js";
import type { Command } from "./command-registry.js";
import type { Editor } from "./editor-context.js";
import { getPermittedCommands } from "./get-permitted-commands.js";

const command = (name: string, undoable: boolean, isEnabled?: () => boolean): Command<null> => ({
  name,
  label: name,
  undoable,
  perform: () => undefined,
  ...(isEnabled ? { isEnabled } : {}),
});

const commands = [
  command("save", false),
  command("undo", false),
  command("delete", true),
  command("paste", true, () => false),
  command("fit-view", false),
  command("export", false),
];

function getEnabled(denied: readonly string[]): Record<string, boolean> {
  const permitted = getPermittedCommands({ commands, isDenied: (permission) => denied.includes(permission) });
  return Object.fromEntries(permitted.map((entry) => [entry.name, entry.isEnabled?.(null) ?? true]));
}

describe("getPermittedCommands", () => {
  it("turns off save, undo and every undoable edit for a role without agents:write; views stay on", () => {
    expect(getEnabled(["agents:write"])).toEqual({
      save: false,
      undo: false,
      delete: false,
      paste: false,
      "fit-view": true,
      export: true,
    });
  });

  it("keeps each command's own rule when the role may write", () => {
    expect(getEnabled([])).toEqual({
      save: true,
      undo: true,
      delete: true,
      paste: false,
      "fit-view": true,
      export: true,
    });
  });

  it("covers every design command the editor has", () => {
    const permitted = getPermittedCommands<Editor>({
      commands: createEditorCommands(),
      isDenied: (permission) => permission === "agents:write",
    });
    const open = permitted.filter((entry) => entry.undoable && (entry.isEnabled?.({} as Editor) ?? true));
    expect(open.map((entry) => entry.name)).toEqual([]);
  });
});
