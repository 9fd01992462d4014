import { useEffect } from "react";
import type { Editor } from "../editor/editor-context.js";
import { getClipboardSlice, getPasteChange, type ClipboardSlice } from "../graph/clipboard-slice.js";
import { getClipboardJson, parsePastedJson } from "../graph/clipboard-json.js";
import { getNewToolPosition } from "../graph/get-new-tool-position.js";
import type { XYPosition } from "../model/geometry.js";

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** Copy and paste belong to the canvas unless the focus is in a field or a dialog is open. */
function isCanvasFocused(editor: Editor, target: EventTarget | null): boolean {
  return editor.ui.getState().dialog === null && !isTyping(target) && !isTyping(document.activeElement);
}

/** Where a slice goes: its top-left corner where the next new tool would go (beside what is in view). */
function getPasteOffset(editor: Editor, slice: ClipboardSlice): XYPosition {
  const spec = editor.document.getState().spec;
  const inGroup = new Set(slice.groups.flatMap((group) => group.members));
  const tops = Object.entries(slice.positions).filter(([key]) => !inGroup.has(key));
  const minX = Math.min(...tops.map(([, position]) => position.x));
  const minY = Math.min(...tops.map(([, position]) => position.y));
  const view = editor.canvas.current?.getViewRect();
  const target = getNewToolPosition(spec, view && view.width > 0 ? { view } : {});
  return tops.length === 0 ? { x: 0, y: 0 } : { x: target.x - minX, y: target.y - minY };
}

/** Adds pasted JSON to the document, or says in a toast why it cannot. */
export function pasteJsonText(editor: Editor, text: string): boolean {
  const { notify } = editor.ui.getState();
  if (editor.runs.getState().mode !== "edit") {
    notify("error", "A run is shown, so the canvas is read-only: choose Back to editing, then paste.");
    return false;
  }
  const pasted = parsePastedJson(text);
  if (!pasted.ok) {
    notify("error", pasted.message);
    return false;
  }
  const document = editor.document.getState();
  const { change, selection } = getPasteChange(document.spec, {
    slice: pasted.slice,
    offset: getPasteOffset(editor, pasted.slice),
  });
  if (!document.dispatch(change)) return false;
  document.setSelection(selection);
  const renamed = pasted.slice.tools.filter((tool) => !selection.nodes.includes(tool.name));
  const count = pasted.slice.tools.length;
  const edges = pasted.slice.edges.length;
  const what =
    pasted.source === "tool"
      ? `Added the tool “${selection.nodes[0] ?? ""}”`
      : `Added ${count} tool${count === 1 ? "" : "s"}${edges > 0 ? ` and ${edges} edge${edges === 1 ? "" : "s"}` : ""}`;
  const from =
    pasted.source === "agent"
      ? ` from the agent “${pasted.agentName ?? ""}” (to open it as an agent of its own, use Import)`
      : "";
  const clash =
    renamed.length > 0 && pasted.source === "tool" ? " (its name was taken, so it got a suffix)" : "";
  notify("success", `${what}${from}${clash}.`);
  return true;
}

/**
 * Copy puts the selected tools' JSON on the system clipboard (and keeps the slice for the Paste menu);
 * paste reads tool or agent JSON from it. Both only while the canvas has the focus.
 */
export function useClipboardJson(editor: Editor): void {
  useEffect(() => {
    const onCopy = (event: ClipboardEvent) => {
      if (!isCanvasFocused(editor, event.target) || !event.clipboardData) return;
      const { spec, selection } = editor.document.getState();
      const slice = getClipboardSlice(spec, selection);
      if (!slice) return;
      event.preventDefault();
      event.clipboardData.setData("text/plain", getClipboardJson(slice));
      editor.ui.getState().set({ clipboard: slice });
    };
    const onPaste = (event: ClipboardEvent) => {
      if (!isCanvasFocused(editor, event.target) || !event.clipboardData) return;
      event.preventDefault();
      const text = event.clipboardData.getData("text/plain");
      // nothing on the system clipboard (it could not be written): the copy kept in the page still pastes
      if (text.trim() === "" && editor.ui.getState().clipboard) editor.commands.execute("paste", editor);
      else pasteJsonText(editor, text);
    };
    document.addEventListener("copy", onCopy);
    document.addEventListener("paste", onPaste);
    return () => {
      document.removeEventListener("copy", onCopy);
      document.removeEventListener("paste", onPaste);
    };
  }, [editor]);
}
