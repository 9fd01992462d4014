import type { Editor } from "../editor/editor-context.js";
import { getIsDirty } from "../store/document-store.js";
import type { Command } from "../editor/command-registry.js";

const doc = (editor: Editor) => editor.document.getState();

/** File and view commands: save, new, import, export, versions, releases, theme, help. */
export function createAppCommands(): Command<Editor>[] {
  return [
    {
      name: "save",
      label: "Save",
      shortcut: "Mod+S",
      section: "File",
      undoable: false,
      perform: (editor) => void editor.agents.save(),
    },
    {
      name: "new-agent",
      label: "New agent…",
      section: "File",
      undoable: false,
      perform: (editor) => editor.agents.newAgent(),
    },
    {
      name: "import",
      label: "Import…",
      shortcut: "Mod+O",
      section: "File",
      undoable: false,
      perform: (editor) => void editor.ui.getState().openDialog("import", {}),
    },
    {
      name: "export",
      label: "Export…",
      shortcut: "Mod+E",
      section: "File",
      undoable: false,
      perform: (editor) => void editor.ui.getState().openDialog("export", {}),
    },
    {
      name: "versions",
      label: "Version history…",
      section: "File",
      undoable: false,
      isEnabled: (editor) => doc(editor).agentId !== null,
      perform: (editor) => void editor.ui.getState().openDialog("versions", {}),
    },
    {
      name: "release",
      label: "Release…",
      section: "File",
      undoable: false,
      isEnabled: (editor) => doc(editor).agentId !== null && doc(editor).baseVersion !== null,
      perform: (editor) => void editor.ui.getState().openDialog("release", {}),
    },
    {
      name: "releases",
      label: "Releases",
      section: "File",
      undoable: false,
      isEnabled: (editor) => doc(editor).agentId !== null,
      perform: (editor) => void editor.ui.getState().openDialog("releases", {}),
    },
    {
      name: "publish",
      label: "Publish",
      section: "File",
      undoable: false,
      perform: (editor) => void editor.ui.getState().openDialog("publish", {}),
    },
    {
      name: "triggers",
      label: "Triggers",
      section: "File",
      undoable: false,
      isEnabled: (editor) => doc(editor).agentId !== null,
      perform: (editor) => void editor.ui.getState().openDialog("triggers", {}),
    },
    {
      name: "use-agent",
      label: "Use",
      section: "File",
      undoable: false,
      perform: (editor) => void editor.ui.getState().openDialog("useAgent", {}),
    },
    {
      name: "toggle-theme",
      label: "Switch theme",
      shortcut: "Shift+T",
      section: "View",
      undoable: false,
      perform(editor) {
        const order = ["system", "light", "dark"] as const;
        const current = order.indexOf(editor.ui.getState().theme);
        editor.ui.getState().set({ theme: order[(current + 1) % order.length] ?? "system" });
      },
    },
    {
      name: "show-shortcuts",
      label: "Keyboard shortcuts",
      shortcut: "?",
      section: "View",
      undoable: false,
      perform: (editor) => void editor.ui.getState().openDialog("shortcuts", {}),
    },
    {
      name: "reload-agent",
      label: "Reload from server",
      section: "File",
      undoable: false,
      isEnabled: (editor) => doc(editor).agentId !== null && getIsDirty(doc(editor)),
      perform: (editor) => void editor.agents.openAgent(doc(editor).agentId ?? ""),
    },
  ];
}
