import { getCanonicalJson } from "@waddle/planner";
import type { ShadowCase, ShadowSide, ShadowToolCall, ShadowTotals, Usage } from "@waddle/protocol";
import { EMPTY_USAGE } from "../../store/waddle-store.js";

/** Where two tool paths part: the index of the first call that differs in tool or args; null when none does. */
export function getPartsAt(baseline: readonly ShadowToolCall[], candidate: readonly ShadowToolCall[]) {
  const length = Math.max(baseline.length, candidate.length);
  for (let index = 0; index < length; index += 1) {
    const left = baseline[index];
    const right = candidate[index];
    if (!left || !right || left.tool !== right.tool) return index;
    if (getCanonicalJson(left.args) !== getCanonicalJson(right.args)) return index;
  }
  return null;
}

/** One case from its two sides: where the paths part, whether the answers agree, what was refused. */
export function compareShadowSides(input: {
  runId: string;
  sessionId: string | null;
  turn: number | null;
  query: string;
  baseline: ShadowSide;
  candidate: ShadowSide;
}): ShadowCase {
  const partsAt = getPartsAt(input.baseline.tools, input.candidate.tools);
  return {
    ...input,
    sameTools: partsAt === null,
    partsAt,
    sameAnswer: (input.baseline.answer?.trim() ?? null) === (input.candidate.answer?.trim() ?? null),
    notRecorded: input.candidate.tools.filter((call) => call.notRecorded === true).length,
  };
}

function addUsage(total: Usage, usage: Usage): Usage {
  return {
    promptTokens: total.promptTokens + usage.promptTokens,
    completionTokens: total.completionTokens + usage.completionTokens,
    reasoningTokens: total.reasoningTokens + usage.reasoningTokens,
    costUsd: total.costUsd + usage.costUsd,
    llmCalls: total.llmCalls + usage.llmCalls,
  };
}

function getSideTotals(sides: readonly ShadowSide[]): ShadowTotals["baseline"] {
  return {
    usage: sides.reduce((total, side) => addUsage(total, side.usage), { ...EMPTY_USAGE }),
    durationMs: sides.reduce((total, side) => total + side.durationMs, 0),
    failed: sides.filter((side) => side.status === "failed").length,
  };
}

/** The report's totals over its cases. */
export function getShadowTotals(cases: readonly ShadowCase[]): ShadowTotals {
  return {
    cases: cases.length,
    sameTools: cases.filter((entry) => entry.sameTools).length,
    sameAnswer: cases.filter((entry) => entry.sameAnswer).length,
    notRecorded: cases.reduce((total, entry) => total + entry.notRecorded, 0),
    baseline: getSideTotals(cases.map((entry) => entry.baseline)),
    candidate: getSideTotals(cases.map((entry) => entry.candidate)),
  };
}
