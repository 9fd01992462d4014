import { describe, expect, it } from "vitest";
import { createDocumentStore, type DocumentStore } from "../store/document-store.js";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { createCommandRegistry, type Command } from "./command-registry.js";
import { formatShortcut, isShortcutMatch } from "./shortcut.js";

type Context = { document: DocumentStore; log: string[] };

const stroke = (
  key: string,
  modifiers: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {},
) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...modifiers,
});

function setup() {
  const document = createDocumentStore({ spec: makeSpec() });
  document.getState().load({ spec: makeSpec(), agentId: "test-agent", version: 1 });
  const commands: Command<Context>[] = [
    {
      name: "addTwo",
      label: "Add two tools",
      shortcut: "Mod+D",
      undoable: true,
      perform: ({ document: store }) => {
        store.getState().dispatch({ type: "addTool", tool: makeTool("x"), position: { x: 0, y: 0 } });
        store.getState().dispatch({ type: "addTool", tool: makeTool("y"), position: { x: 0, y: 0 } });
      },
    },
    {
      name: "undo",
      label: "Undo",
      shortcut: "Mod+Z",
      undoable: false,
      isEnabled: ({ document: store }) => store.getState().past.length > 0,
      perform: ({ document: store }) => void store.getState().undo(),
    },
    {
      name: "redo",
      label: "Redo",
      shortcut: "Mod+Shift+Z",
      extraShortcuts: ["Mod+Y"],
      undoable: false,
      isEnabled: ({ document: store }) => store.getState().future.length > 0,
      perform: ({ document: store }) => void store.getState().redo(),
    },
    {
      name: "help",
      label: "Shortcuts",
      shortcut: "?",
      undoable: false,
      perform: ({ log }) => void log.push("help"),
    },
    {
      name: "delete",
      label: "Delete",
      shortcut: "Delete",
      extraShortcuts: ["Backspace"],
      undoable: true,
      perform: ({ log }) => void log.push("delete"),
    },
  ];
  const registry = createCommandRegistry<Context>({
    commands,
    transact: (context, label, perform) => context.document.getState().transact(label, perform),
  });
  return { registry, context: { document, log: [] as string[] } };
}

describe("createCommandRegistry", () => {
  it("runs an undoable command's changes as one undo step", () => {
    const { registry, context } = setup();
    expect(registry.execute("addTwo", context)).toBe(true);
    expect(context.document.getState().past).toHaveLength(1);
    expect(context.document.getState().past[0]?.label).toBe("Add two tools");
    expect(registry.execute("undo", context)).toBe(true);
    expect(context.document.getState().spec.tools).toHaveLength(3);
    expect(registry.execute("redo", context)).toBe(true);
    expect(context.document.getState().spec.tools).toHaveLength(5);
  });

  it("refuses disabled and unknown commands", () => {
    const { registry, context } = setup();
    expect(registry.isEnabled("undo", context)).toBe(false);
    expect(registry.execute("undo", context)).toBe(false);
    expect(registry.execute("nope", context)).toBe(false);
  });

  it("finds commands by key stroke on each platform", () => {
    const { registry } = setup();
    expect(registry.findByKey(stroke("z", { ctrlKey: true }), false)?.name).toBe("undo");
    expect(registry.findByKey(stroke("Z", { ctrlKey: true, shiftKey: true }), false)?.name).toBe("redo");
    expect(registry.findByKey(stroke("y", { ctrlKey: true }), false)?.name).toBe("redo");
    expect(registry.findByKey(stroke("z", { metaKey: true }), true)?.name).toBe("undo");
    expect(registry.findByKey(stroke("z", { metaKey: true }), false)).toBeUndefined();
    expect(registry.findByKey(stroke("?", { shiftKey: true }), false)?.name).toBe("help");
    expect(registry.findByKey(stroke("Backspace"), false)?.name).toBe("delete");
    expect(registry.findByKey(stroke("d"), false)).toBeUndefined();
  });

  it("rejects two commands with one name", () => {
    const command: Command<Context> = { name: "a", label: "A", undoable: false, perform: () => undefined };
    expect(() =>
      createCommandRegistry<Context>({ commands: [command, command], transact: () => undefined }),
    ).toThrow(/twice/);
  });
});

describe("shortcuts", () => {
  it("formats per platform", () => {
    expect(formatShortcut("Mod+Shift+z", true)).toBe("⌘⇧Z");
    expect(formatShortcut("Mod+Shift+z", false)).toBe("Ctrl+Shift+Z");
    expect(formatShortcut("Delete", false)).toBe("Delete");
    expect(isShortcutMatch("Mod+Z", stroke("z", { ctrlKey: true, altKey: true }), false)).toBe(false);
  });

  it("matches a digit on its physical key: Shift+1 sends '!' (or '&' on AZERTY) yet fits", () => {
    const shifted = (key: string, code: string) => ({ ...stroke(key, { shiftKey: true }), code });
    expect(isShortcutMatch("Shift+1", shifted("!", "Digit1"), false)).toBe(true);
    expect(isShortcutMatch("Shift+1", shifted("1", "Digit1"), false)).toBe(true);
    expect(isShortcutMatch("Shift+1", shifted("End", "Numpad1"), false)).toBe(true);
    expect(isShortcutMatch("Shift+1", shifted("@", "Digit2"), false)).toBe(false);
    expect(isShortcutMatch("Shift+1", { ...stroke("!"), code: "Digit1" }, false)).toBe(false);
    // letters follow the layout: AZERTY's "z" key is KeyW, and Ctrl+Z is still its undo
    expect(isShortcutMatch("Mod+Z", { ...stroke("z", { ctrlKey: true }), code: "KeyW" }, false)).toBe(true);
    expect(isShortcutMatch("Mod+Z", { ...stroke("w", { ctrlKey: true }), code: "KeyZ" }, false)).toBe(false);
  });

  it("matches Alt+letter on its physical key, since Option+B types '∫' on macOS", () => {
    const optionB = { ...stroke("∫", { metaKey: true, altKey: true }), code: "KeyB" };
    expect(isShortcutMatch("Mod+Alt+B", optionB, true)).toBe(true);
    expect(isShortcutMatch("Mod+B", optionB, true)).toBe(false);
    expect(isShortcutMatch("Mod+Alt+B", { ...optionB, code: "KeyN" }, true)).toBe(false);
  });
});
