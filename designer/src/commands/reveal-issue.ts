import type { SpecIssue } from "@waddle/protocol";
import type { Editor } from "../editor/editor-context.js";
import { getGroupKey } from "../model/layout-geometry.js";
import { EMPTY_SELECTION } from "../model/selection.js";
import { isAnswerSchemaIssue } from "../answer/answer-schema-model.js";
import { isGuardIssue } from "../guards/guard-model.js";

/** Selects the element an issue concerns and brings it into view (or opens the panel that holds it). */
export function revealIssue(editor: Editor, issue: SpecIssue): void {
  const { spec, setSelection } = editor.document.getState();
  const ui = editor.ui.getState();
  const id = issue.target?.id;
  if (isAnswerSchemaIssue(issue) || isGuardIssue(issue)) {
    // the agent's answer schema and its guards are edited in Settings (Answer, Guards)
    ui.set({ rightTab: "settings" });
    return;
  }
  switch (issue.target?.kind) {
    case "tool":
      if (id !== undefined && spec.tools.some((tool) => tool.name === id)) {
        setSelection({ nodes: [id], edges: [] });
        ui.set({ rightTab: "inspector" });
        editor.canvas.current?.reveal({ nodes: [id] });
        return;
      }
      break;
    case "edge":
      if (id !== undefined && spec.edges.some((edge) => edge.id === id)) {
        setSelection({ nodes: [], edges: [id] });
        ui.set({ rightTab: "inspector" });
        editor.canvas.current?.reveal({ edges: [id] });
        return;
      }
      break;
    case "group":
      if (id !== undefined && spec.groups.some((group) => group.id === id)) {
        setSelection({ nodes: [getGroupKey(id)], edges: [] });
        ui.set({ rightTab: "inspector" });
        editor.canvas.current?.reveal({ nodes: [getGroupKey(id)] });
        return;
      }
      break;
    case "hints":
      ui.set({ rightTab: "hints" });
      return;
    case "llm":
    case "planner":
      ui.set({ rightTab: "settings" });
      return;
    default:
      break;
  }
  setSelection(EMPTY_SELECTION);
  ui.set({ rightTab: "inspector" });
}
