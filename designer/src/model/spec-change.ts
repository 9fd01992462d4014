import type { Rect, XYPosition } from "./geometry.js";
import type {
  AgentSpec,
  Edge,
  LlmConfig,
  ParallelGroup,
  PlannerOptions,
  PlanningHints,
  Position,
  ToolSpec,
} from "@waddle/protocol";

/** Hint lists that hold tool names and are toggled per tool. */
export type ToolHintList = "prefer_nodes" | "disallow_nodes" | "sequential_only";

/** The LLM settings slots of a spec. */
export type LlmSlot = "llm" | "summarizerLlm" | "routerLlm";

/**
 * One edit of the document, as data. `applySpecChange` applies it purely; the document store records it for
 * undo/redo. Positions in `addTool`, `setMembership` and `addGroup` are absolute flow coordinates;
 * `moveNodes` writes layout entries as they are stored (members relative to their group frame).
 */
export type SpecChange =
  | { type: "addTool"; tool: ToolSpec; position: XYPosition; groupId?: string }
  | { type: "updateTool"; name: string; patch: Partial<ToolSpec> }
  | { type: "renameTool"; from: string; to: string }
  | { type: "removeElements"; tools?: string[]; edges?: string[]; groups?: string[] }
  | { type: "moveNodes"; positions: Record<string, Position> }
  | { type: "setMembership"; tool: string; groupId: string | null; position: XYPosition }
  | { type: "addEdge"; edge: Edge }
  | { type: "updateEdge"; id: string; patch: Partial<Pick<Edge, "kind" | "source" | "target">> }
  | { type: "addGroup"; group: ParallelGroup; frame: Rect }
  | { type: "updateGroup"; id: string; patch: Partial<Omit<ParallelGroup, "id" | "kind" | "members">> }
  | {
      type: "updateAgent";
      patch: Partial<
        Pick<
          AgentSpec,
          "id" | "name" | "description" | "sampleQueries" | "approval" | "answerSchema" | "guards"
        >
      >;
    }
  | { type: "setLlm"; slot: LlmSlot; value: LlmConfig | undefined }
  | { type: "updatePlanner"; patch: Partial<PlannerOptions> }
  | { type: "updateHints"; patch: Partial<PlanningHints> }
  | { type: "setToolHint"; tool: string; list: ToolHintList; enabled: boolean }
  | {
      type: "addElements";
      tools: ToolSpec[];
      edges: Edge[];
      groups: ParallelGroup[];
      positions: Record<string, Position>;
    }
  | { type: "replaceSpec"; spec: AgentSpec; reason: string }
  | { type: "batch"; label: string; changes: SpecChange[] };

/** A short human label for a change, shown in undo/redo tooltips. */
export function getChangeLabel(change: SpecChange): string {
  switch (change.type) {
    case "addTool":
      return `add ${change.tool.name}`;
    case "updateTool":
      return `edit ${change.name}`;
    case "renameTool":
      return `rename ${change.from} to ${change.to}`;
    case "removeElements":
      return "delete";
    case "moveNodes":
      return "move";
    case "setMembership":
      return change.groupId ? `move ${change.tool} into a group` : `move ${change.tool} out of its group`;
    case "addEdge":
      return `connect ${change.edge.source} → ${change.edge.target}`;
    case "updateEdge":
      return "edit edge";
    case "addGroup":
      return `add group ${change.group.name}`;
    case "updateGroup":
      return "edit group";
    case "updateAgent":
      return "edit agent";
    case "setLlm":
      return "edit LLM settings";
    case "updatePlanner":
      return "edit planner options";
    case "updateHints":
    case "setToolHint":
      return "edit hints";
    case "addElements":
      return "paste";
    case "replaceSpec":
      return change.reason;
    case "batch":
      return change.label;
  }
}
