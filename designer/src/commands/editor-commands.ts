import type { Editor } from "../editor/editor-context.js";
import { getAutoLayoutChange, loadElk } from "../graph/auto-layout.js";
import { getClipboardSlice, getPasteChange, getPasteOffset } from "../graph/clipboard-slice.js";
import { getClipboardJson } from "../graph/clipboard-json.js";
import { EMPTY_SELECTION } from "../model/selection.js";
import type { ToolHintList } from "../model/spec-change.js";
import { createNewTool } from "../templates/create-new-tool.js";
import { createAppCommands } from "./app-commands.js";
import { createViewCommands } from "./view-commands.js";
import type { Command } from "../editor/command-registry.js";
import { addGroupToCanvas, addToolToCanvas } from "./editor-actions.js";
import {
  getDeleteChange,
  getGroupSelectionChange,
  getLeaveGroupChange,
  getSelectAll,
  getSelectedTools,
} from "./selection-changes.js";

type EditorCommand = Command<Editor>;

const doc = (editor: Editor) => editor.document.getState();
const hasSelection = (editor: Editor) =>
  doc(editor).selection.nodes.length + doc(editor).selection.edges.length > 0;
const hasSelectedTools = (editor: Editor) =>
  getSelectedTools(doc(editor).spec, doc(editor).selection).length > 0;

function toggleHint(list: ToolHintList, label: string): EditorCommand {
  return {
    name: `toggle-${list}`,
    label,
    section: "Hints",
    undoable: true,
    isEnabled: hasSelectedTools,
    perform(editor) {
      const { spec, selection, dispatch } = doc(editor);
      const tools = getSelectedTools(spec, selection);
      const enabled = !tools.every((name) => spec.hints[list].includes(name));
      for (const tool of tools) dispatch({ type: "setToolHint", tool, list, enabled });
    },
  };
}

function copySelection(editor: Editor, toSystem: boolean): boolean {
  const { spec, selection } = doc(editor);
  const slice = getClipboardSlice(spec, selection);
  if (slice) {
    editor.ui.getState().set({ clipboard: slice });
    // the menu's Copy reaches the system clipboard too (Ctrl+C does through the copy event)
    if (toSystem)
      void globalThis.navigator?.clipboard?.writeText(getClipboardJson(slice)).catch(() => undefined);
  }
  return slice !== null;
}

function paste(editor: Editor, step: number): void {
  const slice = editor.ui.getState().clipboard;
  if (!slice) return;
  const spec = doc(editor).spec;
  const offset = getPasteOffset(spec, { slice, step });
  const { change, selection } = getPasteChange(spec, { slice, offset });
  if (doc(editor).dispatch(change)) doc(editor).setSelection(selection);
}

/** Every editor command. Toolbar buttons, shortcuts, context menus and the help dialog all use these. */
export function createEditorCommands(): EditorCommand[] {
  return [
    ...createAppCommands(),
    ...createViewCommands(),
    {
      name: "undo",
      label: "Undo",
      shortcut: "Mod+Z",
      section: "Edit",
      undoable: false,
      isEnabled: (editor) => doc(editor).past.length > 0,
      perform: (editor) => void doc(editor).undo(),
    },
    {
      name: "redo",
      label: "Redo",
      shortcut: "Mod+Shift+Z",
      extraShortcuts: ["Mod+Y"],
      section: "Edit",
      undoable: false,
      isEnabled: (editor) => doc(editor).future.length > 0,
      perform: (editor) => void doc(editor).redo(),
    },
    {
      name: "copy",
      label: "Copy",
      shortcut: "Mod+C",
      section: "Edit",
      undoable: false,
      isEnabled: hasSelection,
      perform: (editor) => void copySelection(editor, true),
    },
    {
      name: "paste",
      label: "Paste",
      shortcut: "Mod+V",
      section: "Edit",
      undoable: true,
      isEnabled: (editor) => editor.ui.getState().clipboard !== null,
      perform: (editor) => paste(editor, 60),
    },
    {
      name: "duplicate",
      label: "Duplicate",
      shortcut: "Mod+D",
      section: "Edit",
      undoable: true,
      isEnabled: hasSelection,
      perform: (editor) => {
        const previous = editor.ui.getState().clipboard;
        if (copySelection(editor, false)) paste(editor, 40);
        editor.ui.getState().set({ clipboard: previous });
      },
    },
    {
      name: "delete",
      label: "Delete",
      shortcut: "Delete",
      extraShortcuts: ["Backspace"],
      section: "Edit",
      undoable: true,
      isEnabled: hasSelection,
      perform(editor) {
        const change = getDeleteChange(doc(editor).spec, doc(editor).selection);
        if (change) doc(editor).dispatch(change);
      },
    },
    {
      name: "flip-edge-kind",
      label: "Switch edge kind (auto-seq ⇄ order)",
      section: "Edit",
      undoable: true,
      isEnabled: (editor) => doc(editor).selection.edges.length > 0,
      perform(editor) {
        const { spec, selection, dispatch } = doc(editor);
        for (const edge of spec.edges.filter((candidate) => selection.edges.includes(candidate.id))) {
          const kind = edge.kind === "auto_seq" ? "order" : "auto_seq";
          dispatch({ type: "updateEdge", id: edge.id, patch: { kind } });
          const target = spec.tools.find((tool) => tool.name === edge.target);
          if (kind === "auto_seq" && target && !target.autoSeq)
            dispatch({ type: "updateTool", name: target.name, patch: { autoSeq: true } });
        }
      },
    },
    {
      name: "select-all",
      label: "Select all",
      shortcut: "Mod+A",
      section: "Edit",
      undoable: false,
      perform: (editor) => doc(editor).setSelection(getSelectAll(doc(editor).spec)),
    },
    {
      name: "clear-selection",
      label: "Clear selection",
      shortcut: "Escape",
      section: "Edit",
      undoable: false,
      isEnabled: hasSelection,
      perform: (editor) => doc(editor).setSelection(EMPTY_SELECTION),
    },
    {
      name: "add-mock-tool",
      label: "Add a mock tool",
      shortcut: "N",
      section: "Canvas",
      undoable: true,
      perform: (editor) =>
        addToolToCanvas(editor, {
          tool: createNewTool({ kind: "mock", taken: doc(editor).spec.tools.map((tool) => tool.name) }),
        }),
    },
    {
      name: "add-group",
      label: "Add a parallel group",
      shortcut: "Shift+G",
      section: "Canvas",
      undoable: true,
      perform: (editor) => addGroupToCanvas(editor),
    },
    {
      name: "group-selection",
      label: "Group selected tools",
      shortcut: "Mod+G",
      section: "Canvas",
      undoable: true,
      isEnabled: hasSelectedTools,
      perform(editor) {
        const result = getGroupSelectionChange(doc(editor).spec, doc(editor).selection);
        if (result && doc(editor).dispatch(result.change))
          doc(editor).setSelection({ nodes: [`group:${result.groupId}`], edges: [] });
      },
    },
    {
      name: "leave-group",
      label: "Remove from group",
      shortcut: "Mod+Shift+G",
      section: "Canvas",
      undoable: true,
      isEnabled: (editor) => getLeaveGroupChange(doc(editor).spec, doc(editor).selection) !== null,
      perform(editor) {
        const change = getLeaveGroupChange(doc(editor).spec, doc(editor).selection);
        if (change) doc(editor).dispatch(change);
      },
    },
    {
      name: "auto-layout",
      label: "Auto-layout",
      shortcut: "Shift+L",
      section: "Canvas",
      undoable: true,
      isEnabled: (editor) => doc(editor).spec.tools.length > 0,
      async perform(editor) {
        const spec = doc(editor).spec;
        // wrap long rows to the canvas as it is now (less the legend's strip), else to the default window
        const size = editor.canvas.current?.getScreenSize();
        const view = size && size.width > 0 ? { width: size.width, height: size.height - 64 } : undefined;
        const change = await getAutoLayoutChange(spec, await loadElk(), view ? { view } : {});
        // skip the result if the document changed meanwhile: it would move nodes back
        if (change && doc(editor).spec === spec) {
          editor.canvas.current?.fitAfterChange();
          doc(editor).dispatch({ type: "batch", label: "auto-layout", changes: [change] });
        }
      },
    },
    {
      name: "fit-view",
      label: "Fit to screen",
      shortcut: "Shift+1",
      section: "Canvas",
      undoable: false,
      perform: (editor) => editor.canvas.current?.fitView(),
    },
    {
      name: "toggle-edge-kind",
      label: "Switch new edge kind (auto-seq / order)",
      shortcut: "E",
      section: "Canvas",
      undoable: false,
      perform: (editor) =>
        editor.ui
          .getState()
          .set({ edgeKind: editor.ui.getState().edgeKind === "auto_seq" ? "order" : "auto_seq" }),
    },
    {
      name: "toggle-suggestions",
      label: "Show or hide suggested edges",
      shortcut: "Shift+S",
      section: "Canvas",
      undoable: false,
      perform: (editor) =>
        editor.ui.getState().set({ showSuggestions: !editor.ui.getState().showSuggestions }),
    },
    toggleHint("prefer_nodes", "Prefer"),
    toggleHint("disallow_nodes", "Disallow"),
    toggleHint("sequential_only", "Sequential only"),
  ];
}
