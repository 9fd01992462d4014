import type { TestExpect, TestFailure, TrajectoryExpect, TrajectoryOrder } from "@waddle/protocol";
import { z } from "zod";
import { describePause } from "./describe-pause.js";
import { checkStuck } from "./check-stuck.js";
import { checkGuardVerdicts } from "./check-guard-verdicts.js";
import type { RunFacts } from "./run-facts.js";

const ORDER_WORDS: Readonly<Record<TrajectoryOrder, string>> = {
  exact: "exactly",
  in_order: "in this order (others between allowed)",
  any_order: "in any order, and no others",
  subset: "at least",
};

/**
 * The checks of a case's `expect` that did not hold for a run, each with what was expected, what happened
 * and a sentence that says it (the judge is separate: it asks a model). An unmatched call under mocks is a
 * failure of its own, whatever `expect` says.
 */
export function checkExpectations(expect: TestExpect, facts: RunFacts): TestFailure[] {
  const failures: TestFailure[] = [];
  for (const call of facts.unexpectedCalls) {
    failures.push({
      check: "unexpected_tool_call",
      expected: "a call with recorded args",
      actual: { tool: call.tool, args: call.args },
      message: `${call.tool} was called with args no recorded mock matches: ${preview(call.args)}.`,
    });
  }
  if (facts.status === "paused" && expect.status !== "paused") {
    // A test has nobody to answer a pause: say what the run waits on, and how to expect it instead.
    const on = facts.pause ? describePause(facts.pause) : "paused";
    failures.push({
      check: "status",
      expected: expect.status ?? "no pause",
      actual: "paused",
      message: `The run ${on}${expect.status ? `, expected "${expect.status}"` : ""}. A test cannot answer a pause: expect status "paused" if the agent should stop there.`,
    });
  } else if (expect.status !== undefined && expect.status !== facts.status) {
    const why = facts.error ? ` (${facts.error.code}: ${facts.error.message})` : "";
    failures.push({
      check: "status",
      expected: expect.status,
      actual: facts.status,
      message: `The run ended "${facts.status}"${why}, expected "${expect.status}".`,
    });
  }
  if (expect.trajectory) failures.push(...checkTrajectory(expect.trajectory, facts));
  if (expect.answer) failures.push(...checkAnswer(expect.answer, facts.answer));
  const stuck = expect.stuck === undefined ? undefined : checkStuck(expect.stuck, facts.stuck ?? []);
  if (stuck !== undefined) failures.push(stuck);
  if (expect.guards) failures.push(...checkGuardVerdicts(expect.guards, facts.guards ?? []));
  const budget = expect.budget;
  if (budget?.maxTokens !== undefined && facts.tokens > budget.maxTokens)
    failures.push(over("budget.maxTokens", budget.maxTokens, facts.tokens, "tokens"));
  if (budget?.maxCostUsd !== undefined && facts.costUsd > budget.maxCostUsd)
    failures.push(over("budget.maxCostUsd", budget.maxCostUsd, facts.costUsd, "USD"));
  if (budget?.maxDurationMs !== undefined && facts.durationMs > budget.maxDurationMs)
    failures.push(over("budget.maxDurationMs", budget.maxDurationMs, Math.round(facts.durationMs), "ms"));
  return failures;
}

function checkTrajectory(expect: TrajectoryExpect, facts: RunFacts): TestFailure[] {
  const failures: TestFailure[] = [];
  const actual = facts.toolCalls;
  if (!isTrajectoryMatch(expect.tools, actual, expect.order)) {
    failures.push({
      check: `trajectory.${expect.order}`,
      expected: expect.tools,
      actual,
      message: `Expected the tools ${ORDER_WORDS[expect.order]}: ${arrow(expect.tools)}; the run called ${arrow(actual)}.`,
    });
  }
  const forbidden = (expect.forbidden ?? []).filter((tool) => actual.includes(tool));
  if (forbidden.length > 0) {
    failures.push({
      check: "trajectory.forbidden",
      expected: `never ${forbidden.join(", ")}`,
      actual,
      message: `The run called forbidden tool(s) ${forbidden.join(", ")}.`,
    });
  }
  if (expect.maxLlmCalls !== undefined && facts.llmCalls > expect.maxLlmCalls)
    failures.push(over("trajectory.maxLlmCalls", expect.maxLlmCalls, facts.llmCalls, "model calls"));
  if (expect.maxToolCalls !== undefined && actual.length > expect.maxToolCalls)
    failures.push(over("trajectory.maxToolCalls", expect.maxToolCalls, actual.length, "tool calls"));
  return failures;
}

/** True when the run's tool calls fit the expected ones under `order`. */
export function isTrajectoryMatch(
  expected: readonly string[],
  actual: readonly string[],
  order: TrajectoryOrder,
): boolean {
  if (order === "exact")
    return expected.length === actual.length && expected.every((tool, index) => tool === actual[index]);
  if (order === "in_order") {
    let position = 0;
    for (const tool of actual) if (tool === expected[position]) position += 1;
    return position === expected.length;
  }
  const counts = new Map<string, number>();
  for (const tool of actual) counts.set(tool, (counts.get(tool) ?? 0) + 1);
  for (const tool of expected) {
    const left = (counts.get(tool) ?? 0) - 1;
    if (left < 0) return false;
    counts.set(tool, left);
  }
  return order === "subset" || [...counts.values()].every((count) => count === 0);
}

function checkAnswer(expect: NonNullable<TestExpect["answer"]>, answer: unknown): TestFailure[] {
  const failures: TestFailure[] = [];
  const text = typeof answer === "string" ? answer : answer === undefined ? "" : JSON.stringify(answer);
  if (expect.equals !== undefined && text !== expect.equals) {
    failures.push({
      check: "answer.equals",
      expected: expect.equals,
      actual: answer ?? null,
      message: `The answer differs from the expected one: ${quote(text)}.`,
    });
  }
  for (const part of expect.contains ?? []) {
    if (text.includes(part)) continue;
    failures.push({
      check: "answer.contains",
      expected: part,
      actual: answer ?? null,
      message: `The answer does not contain ${quote(part)}.`,
    });
  }
  if (expect.regex !== undefined) {
    const pattern = compileRegex(expect.regex);
    if (pattern === undefined || !pattern.test(text)) {
      failures.push({
        check: "answer.regex",
        expected: expect.regex,
        actual: answer ?? null,
        message:
          pattern === undefined
            ? `/${expect.regex}/ is not a valid regular expression: fix the case.`
            : `The answer does not match /${expect.regex}/.`,
      });
    }
  }
  if (expect.jsonSchema !== undefined) {
    const problem = getSchemaProblem(expect.jsonSchema, answer);
    if (problem !== undefined) {
      failures.push({
        check: "answer.jsonSchema",
        expected: expect.jsonSchema,
        actual: answer ?? null,
        message: `The answer does not fit the JSON Schema: ${problem}.`,
      });
    }
  }
  return failures;
}

function compileRegex(source: string): RegExp | undefined {
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}

/** The first reason `value` (parsed as JSON when it is a string that holds JSON) does not fit `schema`. */
function getSchemaProblem(schema: Record<string, unknown>, value: unknown): string | undefined {
  let type: z.ZodType;
  try {
    type = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    return `the schema cannot be read (${(error as Error).message})`;
  }
  let candidate = value;
  if (typeof value === "string") {
    try {
      candidate = JSON.parse(value) as unknown;
    } catch {
      candidate = value;
    }
  }
  const parsed = type.safeParse(candidate);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return issue
    ? `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`
    : "it does not fit";
}

function over(check: string, limit: number, actual: number, unit: string): TestFailure {
  return {
    check,
    expected: `<= ${limit}`,
    actual,
    message: `Used ${actual} ${unit}, at most ${limit} allowed.`,
  };
}

function arrow(tools: readonly string[]): string {
  return tools.length === 0 ? "(none)" : tools.join(" → ");
}

function quote(text: string): string {
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}
