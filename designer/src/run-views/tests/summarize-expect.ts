import type { TestCase } from "@waddle/protocol";
import { formatCost, formatDuration } from "../../util/format-metrics.js";

const ORDER_WORDS = {
  exact: "exactly",
  in_order: "in order",
  any_order: "any order",
  subset: "at least",
} as const;

/**
 * A case's `expect` as short phrases for its row: the end status, the tools and how they are compared, the
 * answer checks, the budget. An empty list: the case checks nothing beyond mocks being matched.
 */
export function summarizeExpect(expect: TestCase["expect"]): string[] {
  const parts: string[] = [];
  if (expect.status) parts.push(`ends ${expect.status}`);
  const trajectory = expect.trajectory;
  if (trajectory) {
    const tools = trajectory.tools.length === 0 ? "no tools" : trajectory.tools.join(" → ");
    parts.push(`tools ${tools} (${ORDER_WORDS[trajectory.order]})`);
    if (trajectory.forbidden?.length) parts.push(`never ${trajectory.forbidden.join(", ")}`);
    if (trajectory.maxLlmCalls !== undefined) parts.push(`≤ ${trajectory.maxLlmCalls} model calls`);
    if (trajectory.maxToolCalls !== undefined) parts.push(`≤ ${trajectory.maxToolCalls} tool calls`);
  }
  const answer = expect.answer;
  if (answer?.equals !== undefined) parts.push(`answer equals ${clip(answer.equals)}`);
  if (answer?.contains?.length) parts.push(`answer contains ${answer.contains.map(clip).join(", ")}`);
  if (answer?.regex !== undefined) parts.push(`answer matches /${answer.regex}/`);
  if (answer?.jsonSchema !== undefined) parts.push("answer fits a JSON Schema");
  if (answer?.judge) parts.push("judged by a model");
  const budget = expect.budget;
  if (budget?.maxTokens !== undefined) parts.push(`≤ ${budget.maxTokens} tokens`);
  if (budget?.maxCostUsd !== undefined) parts.push(`≤ ${formatCost(budget.maxCostUsd)}`);
  if (budget?.maxDurationMs !== undefined) parts.push(`≤ ${formatDuration(budget.maxDurationMs)}`);
  return parts;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return JSON.stringify(line.length > 48 ? `${line.slice(0, 48)}…` : line);
}
