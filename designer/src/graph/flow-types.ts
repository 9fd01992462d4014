import type { EdgeKind, ParallelGroup, ToolSpec } from "@waddle/protocol";
import type { Edge, Node } from "@xyflow/react";
import type { TransitionProvenance } from "../model/transition-provenance.js";
import type { IssueSummary } from "./get-issue-index.js";

/** What a tool node shows besides the tool itself. */
export type ToolNodeData = {
  tool: ToolSpec;
  preferred: boolean;
  disallowed: boolean;
  sequentialOnly: boolean;
  /** The name of the group this tool joins, when it is a join tool. */
  joinOf: string | null;
  issues: IssueSummary | null;
};

export type GroupNodeData = {
  group: ParallelGroup;
  issues: IssueSummary | null;
};

export type ToolFlowNode = Node<ToolNodeData, "tool">;
export type GroupFlowNode = Node<GroupNodeData, "group">;
export type FlowNode = ToolFlowNode | GroupFlowNode;

export type SpecEdgeData = { kind: EdgeKind; issues: IssueSummary | null };
/** A suggested auto-seq edge: the source's output fits the target's args. */
export type SuggestedEdgeData = { matched: readonly string[] };
export type JoinEdgeData = { groupName: string };

export type SpecFlowEdge = Edge<SpecEdgeData, "spec">;
export type SuggestedFlowEdge = Edge<SuggestedEdgeData, "suggested">;
export type JoinFlowEdge = Edge<JoinEdgeData, "join">;
/** A transition a shown run took along no drawn edge: a temporary arc, on the canvas only during the run. */
export type RunArcEdgeData = {
  provenance: TransitionProvenance;
  seq: number;
  latest: boolean;
  count: number;
};
export type RunArcFlowEdge = Edge<RunArcEdgeData, "runArc">;
export type FlowEdge = SpecFlowEdge | SuggestedFlowEdge | JoinFlowEdge | RunArcFlowEdge;

/** Ids of derived (non-document) edges start with these. */
export const SUGGESTED_EDGE_PREFIX = "suggested:";
export const JOIN_EDGE_PREFIX = "join:";
