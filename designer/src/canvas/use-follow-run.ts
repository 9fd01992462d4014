import { useCallback, useEffect } from "react";
import { useEditor } from "../editor/editor-context.js";
import { getAbsolutePosition, TOOL_NODE_SIZE } from "../model/layout-geometry.js";
import { useRunStore } from "../run-views/use-run-store.js";
import { getViewPrefsStore, useViewPrefs } from "../editor/use-view-prefs.js";
import { getFollowedTool, isWellInView } from "./get-followed-tool.js";

/**
 * While a run plays (live or replayed) and following is on, pans the view to the running tool when it
 * is not well in view. Returns the handler for React Flow's `onMoveStart`: a move the person makes (a
 * drag, the wheel, the minimap) turns following off, and a toast says so.
 */
export function useFollowRun(): (event: MouseEvent | TouchEvent | null) => void {
  const editor = useEditor();
  const follow = useViewPrefs((state) => state.followRun);
  const target = useRunStore((state) =>
    (state.mode === "live" || state.mode === "replay") && state.view
      ? getFollowedTool(state.view.nodes)
      : null,
  );
  useEffect(() => {
    const canvas = editor.canvas.current;
    if (!follow || target === null || !canvas) return;
    const spec = editor.runs.getState().spec ?? editor.document.getState().spec;
    if (!spec.tools.some((tool) => tool.name === target)) return;
    const rect = { ...getAbsolutePosition(spec, target), ...TOOL_NODE_SIZE };
    if (isWellInView(rect, canvas.getViewRect())) return;
    canvas.panTo({ x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 });
  }, [editor, follow, target]);
  return useCallback(
    (event) => {
      // programmatic moves (fits, this hook's pans) come without an event
      if (event === null) return;
      const prefs = getViewPrefsStore(editor).getState();
      if (!prefs.followRun || editor.runs.getState().mode === "edit") return;
      prefs.setFollowRun(false);
      editor.ui
        .getState()
        .notify(
          "info",
          "You moved the view, so it no longer follows the run. Turn Follow run back on to follow it.",
        );
    },
    [editor],
  );
}
