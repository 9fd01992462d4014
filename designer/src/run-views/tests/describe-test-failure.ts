import type { TestFailure } from "@waddle/protocol";

/** A failed check as a person reads it: a sentence, then what was expected and what happened, short. */
export interface FailureWords {
  /** The check's name as the server gives it (`trajectory.exact`, `answer.contains`, …). */
  check: string;
  sentence: string;
  expected: string;
  actual: string;
  /** What the two values are ("Expected" and "Actual", unless the check compares other things). */
  expectedLabel: string;
  actualLabel: string;
}

/** Checks whose expected and actual are not "what should have happened" and "what did". */
const LABELS: Readonly<Record<string, [string, string]>> = {
  unknown_tool: ["Case names", "Version has"],
  unexpected_tool_call: ["Mocks hold", "Called"],
};

const PREVIEW_CHARS = 200;

/**
 * Says a failed check in words. Trajectory checks are read here from their expected and actual tool lists,
 * to name the first call that went wrong ("expected tool search to be called before fetch, but fetch ran
 * first"); the other checks keep the server's sentence (`message`), or get one from their name.
 */
export function describeTestFailure(failure: TestFailure): FailureWords {
  const [expectedLabel, actualLabel] = LABELS[failure.check] ?? ["Expected", "Actual"];
  const words = {
    check: failure.check,
    expected: show(failure.expected),
    // the version's tools are a set, not calls in order
    actual:
      failure.check === "unknown_tool" && isToolList(failure.actual)
        ? failure.actual.join(", ")
        : show(failure.actual),
    expectedLabel,
    actualLabel,
  };
  const trajectory = getTrajectorySentence(failure);
  if (trajectory) return { ...words, sentence: trajectory };
  if (failure.check === "trajectory.forbidden" && isToolList(failure.actual)) {
    const forbidden = String(failure.expected).replace(/^never /, "");
    return { ...words, sentence: `Tool ${forbidden} must never be called, but the run called it.` };
  }
  return { ...words, sentence: failure.message ?? `The check ${failure.check} did not hold.` };
}

function getTrajectorySentence(failure: TestFailure): string | undefined {
  const order = /^trajectory\.(exact|in_order|any_order|subset)$/.exec(failure.check)?.[1];
  if (!order || !isToolList(failure.expected) || !isToolList(failure.actual)) return undefined;
  const expected = failure.expected;
  const actual = failure.actual;
  if (order === "exact") return describeExact(expected, actual);
  if (order === "in_order") return describeInOrder(expected, actual);
  return describeCounts(expected, actual, order === "any_order");
}

/** The first call where the run parts from the expected list, exactly. */
function describeExact(expected: readonly string[], actual: readonly string[]): string {
  const index = expected.findIndex((tool, position) => actual[position] !== tool);
  if (index === -1) {
    const extra = actual.slice(expected.length);
    return `Expected no tool calls after ${expected.at(-1) ?? "the start"}, but ${list(extra)} ${extra.length > 1 ? "ran" : "ran too"}.`;
  }
  const wanted = expected[index]!;
  const ran = actual[index];
  const after = index === 0 ? "first" : `after ${expected[index - 1]!}`;
  if (ran === undefined) {
    return index === 0
      ? `Expected tool ${wanted} to be called first, but the run called no tools.`
      : `Expected tool ${wanted} to be called ${after}, but the run called no more tools.`;
  }
  // the tool that ran was expected later: the expected one was skipped or moved behind it
  if (expected.indexOf(ran, index + 1) !== -1)
    return `Expected tool ${wanted} to be called before ${ran}, but ${ran} ran first.`;
  if (!expected.includes(ran))
    return `Expected tool ${wanted} to be called ${after}, but ${ran} ran instead (it is not expected at all).`;
  return `Expected tool ${wanted} to be called ${after}, but ${ran} ran instead.`;
}

/** The first expected tool the run never reached in order (others may run between). */
function describeInOrder(expected: readonly string[], actual: readonly string[]): string {
  let position = 0;
  for (const tool of actual) if (tool === expected[position]) position += 1;
  const wanted = expected[position];
  if (wanted === undefined) return `Expected the tools in order ${list(expected)}.`;
  const before = position === 0 ? "" : ` after ${expected[position - 1]!}`;
  if (!actual.includes(wanted)) return `Expected tool ${wanted} to be called${before}, but it never ran.`;
  return `Expected tool ${wanted} to be called${before}, but it ran only before ${expected[position - 1] ?? "that"}.`;
}

/** What is missing (and, for `any_order`, what ran without being expected), by count. */
function describeCounts(expected: readonly string[], actual: readonly string[], noOthers: boolean): string {
  const left = new Map<string, number>();
  for (const tool of actual) left.set(tool, (left.get(tool) ?? 0) + 1);
  const missing: string[] = [];
  for (const tool of expected) {
    const count = left.get(tool) ?? 0;
    if (count === 0) missing.push(tool);
    else left.set(tool, count - 1);
  }
  const extra = [...left].flatMap(([tool, count]) => Array<string>(count).fill(tool));
  const parts: string[] = [];
  if (missing.length > 0)
    parts.push(
      `expected ${plural(missing)} ${list(missing)} to be called, but ${missing.length > 1 ? "they" : "it"} never ran`,
    );
  if (noOthers && extra.length > 0) parts.push(`${list(extra)} ran without being expected`);
  if (parts.length === 0) return `Expected the tools ${list(expected)}.`;
  const text = parts.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function isToolList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function plural(tools: readonly string[]): string {
  return tools.length > 1 ? "tools" : "tool";
}

function list(tools: readonly string[]): string {
  return tools.length === 0 ? "(none)" : tools.join(", ");
}

/** A value short enough to read in a row: tool lists as `a → b`, strings as they are, the rest as JSON. */
export function show(value: unknown): string {
  if (isToolList(value)) return value.length === 0 ? "(no tool calls)" : value.join(" → ");
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}
