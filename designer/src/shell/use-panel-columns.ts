import { useEffect, useRef } from "react";
import { useEditor } from "../editor/editor-context.js";
import { getViewPrefsStore, useViewPrefs } from "../editor/use-view-prefs.js";

/** The width of a collapsed panel's rail, in CSS pixels (matches `.panel-rail` in layout.css). */
export const PANEL_RAIL_WIDTH = 36;

/**
 * The body's grid columns from the panels' widths and collapsed states; the canvas takes the rest and
 * React Flow follows its size. Opening the run panel shows the right column if it was collapsed: the
 * person asked to see a run.
 */
export function usePanelColumns(runPanelShown: boolean): string {
  const editor = useEditor();
  const left = useViewPrefs((state) => state.left);
  const right = useViewPrefs((state) => state.right);
  const wasShown = useRef(runPanelShown);
  useEffect(() => {
    if (runPanelShown && !wasShown.current)
      getViewPrefsStore(editor).getState().setPanel("right", { collapsed: false });
    wasShown.current = runPanelShown;
  }, [editor, runPanelShown]);
  const width = (panel: { width: number; collapsed: boolean }) =>
    `${panel.collapsed ? PANEL_RAIL_WIDTH : panel.width}px`;
  return `${width(left)} minmax(0, 1fr) ${width(right)}`;
}
