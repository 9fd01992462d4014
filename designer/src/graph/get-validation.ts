import { validateAgentSpec, type AgentSpec, type SpecIssue } from "@waddle/protocol";
import type { Selection } from "../model/selection.js";
import { getIssueIndex, type IssueIndex } from "./get-issue-index.js";
import { suggestAutoSeqEdges, type SuggestedEdge } from "./suggest-auto-seq-edges.js";

const validations = new WeakMap<AgentSpec, { issues: SpecIssue[]; index: IssueIndex }>();
const merged = new WeakMap<
  { issues: SpecIssue[] },
  { server: readonly SpecIssue[]; result: { issues: SpecIssue[]; index: IssueIndex } }
>();

/** The user-timing name of one validation in the page (the designer benchmark reads it). */
export const VALIDATION_MEASURE = "waddle-validation";
const suggestions = new WeakMap<AgentSpec, SuggestedEdge[]>();

/** `validateAgentSpec` of a spec with its issue index, computed once per spec object. */
export function getValidation(spec: AgentSpec): { issues: SpecIssue[]; index: IssueIndex } {
  let cached = validations.get(spec);
  if (!cached) {
    const started = performance.now();
    const { issues } = validateAgentSpec(spec);
    cached = { issues, index: getIssueIndex(issues) };
    validations.set(spec, cached);
    performance.measure(VALIDATION_MEASURE, { start: started, end: performance.now() });
  }
  return cached;
}

/**
 * The page's own validation with what the server found (`serverIssues`): one list, one index for the
 * badges. Computed once per pair.
 */
export function getMergedValidation(
  spec: AgentSpec,
  serverIssues: readonly SpecIssue[],
): { issues: SpecIssue[]; index: IssueIndex } {
  const local = getValidation(spec);
  if (serverIssues.length === 0) return local;
  const known = merged.get(local);
  if (known?.server === serverIssues) return known.result;
  // a tool renamed or removed since the server looked: its findings no longer apply
  const tools = new Set(spec.tools.map((tool) => tool.name));
  const kept = serverIssues.filter(
    (issue) => issue.target?.kind !== "tool" || tools.has(issue.target.id ?? ""),
  );
  const issues = [...local.issues, ...kept];
  const result = { issues, index: getIssueIndex(issues) };
  merged.set(local, { server: serverIssues, result });
  return result;
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

/** Up to this many tools, suggestions are computed for every pair and drawn when there are few. */
const SMALL_AGENT = 40;

/**
 * The suggestions worth drawing: all of them on a small agent with few suggestions; otherwise only those
 * touching the selected tools (computed for those pairs only), so that ghost edges never drown the real
 * ones and a big agent never compares every pair on each edit.
 */
export function getVisibleSuggestions(
  spec: AgentSpec,
  selection: Selection,
  limit = 16,
): readonly SuggestedEdge[] {
  if (spec.tools.length <= SMALL_AGENT) {
    const all = getSuggestions(spec);
    if (all.length <= limit) return all;
  }
  const tools = new Set(spec.tools.map((tool) => tool.name));
  const selected = new Set(selection.nodes.filter((id) => tools.has(id)));
  if (selected.size === 0) return [];
  return suggestAutoSeqEdges(spec, { involving: selected }).slice(0, limit);
}
