import { validateAgentSpec, type AgentSpec, type SpecIssue } from "@waddle/protocol";
import type { Selection } from "../store/selection.js";
import { getIssueIndex, type IssueIndex } from "./get-issue-index.js";
import { suggestAutoSeqEdges, type SuggestedEdge } from "./suggest-auto-seq-edges.js";

const validations = new WeakMap<AgentSpec, { issues: SpecIssue[]; index: IssueIndex }>();
const suggestions = new WeakMap<AgentSpec, SuggestedEdge[]>();

/** `validateAgentSpec` of a spec with its issue index, computed once per spec object. */
export function getValidation(spec: AgentSpec): { issues: SpecIssue[]; index: IssueIndex } {
  let cached = validations.get(spec);
  if (!cached) {
    const { issues } = validateAgentSpec(spec);
    cached = { issues, index: getIssueIndex(issues) };
    validations.set(spec, cached);
  }
  return cached;
}

/** `suggestAutoSeqEdges` of a spec, computed once per spec object. */
export function getSuggestions(spec: AgentSpec): SuggestedEdge[] {
  let cached = suggestions.get(spec);
  if (!cached) {
    cached = suggestAutoSeqEdges(spec);
    suggestions.set(spec, cached);
  }
  return cached;
}

/**
 * The suggestions worth drawing: all of them while there are few; on a busy canvas only those touching
 * the selected tools, so that ghost edges never drown the real ones.
 */
export function getVisibleSuggestions(
  all: readonly SuggestedEdge[],
  selection: Selection,
  limit = 16,
): readonly SuggestedEdge[] {
  if (all.length <= limit) return all;
  const selected = new Set(selection.nodes);
  return all.filter((edge) => selected.has(edge.source) || selected.has(edge.target)).slice(0, limit);
}
