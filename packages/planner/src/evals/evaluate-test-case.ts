import type { TestCase, TestFailure } from "@waddle/protocol";
import type { LlmClient } from "../llm/llm-client.js";
import { checkExpectations } from "./check-expectations.js";
import { judgeAnswer } from "./judge-answer.js";
import type { RunFacts } from "./run-facts.js";

/** Makes the judge's client: the agent's endpoint, or `model` on it. Undefined when there is none. */
export type JudgeLlmFactory = (model: string | undefined) => LlmClient | undefined;

export interface TestCaseVerdict {
  status: "passed" | "failed";
  failures: TestFailure[];
  skippedChecks: { check: string; reason: string }[];
}

/** Tools a case names (in mocks or the expected trajectory) that the agent does not have. */
export function getUnknownTools(testCase: TestCase, toolNames: readonly string[]): string[] {
  const known = new Set(toolNames);
  const named = [...testCase.mocks.map((mock) => mock.tool), ...(testCase.expect.trajectory?.tools ?? [])];
  return [...new Set(named.filter((tool) => !known.has(tool)))];
}

/**
 * Decides a case from its run's facts: tools the case names that the agent lacks, every `expect` check, and
 * the judge (skipped on the offline model). The same code decides cases in the server and in the CLI.
 */
export async function evaluateTestCase(options: {
  testCase: TestCase;
  /** The tools of the agent version that ran. */
  toolNames: readonly string[];
  facts: RunFacts;
  judgeLlm?: JudgeLlmFactory;
  signal?: AbortSignal;
}): Promise<TestCaseVerdict> {
  const { testCase, facts } = options;
  const failures: TestFailure[] = getUnknownTools(testCase, options.toolNames).map((tool) => ({
    check: "unknown_tool",
    expected: tool,
    actual: options.toolNames,
    message: `The case names tool ${tool}, which this agent version does not have.`,
  }));
  failures.push(...checkExpectations(testCase.expect, facts));
  const skippedChecks: TestCaseVerdict["skippedChecks"] = [];
  const judge = testCase.expect.answer?.judge;
  if (judge !== undefined) {
    try {
      const outcome = await judgeAnswer({
        llm: options.judgeLlm?.(judge.model),
        criteria: judge.criteria,
        query: testCase.query,
        answer: facts.answer,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (outcome.kind === "failed") failures.push(outcome.failure);
      if (outcome.kind === "skipped") skippedChecks.push({ check: "answer.judge", reason: outcome.reason });
    } catch (error) {
      failures.push({
        check: "answer.judge",
        expected: judge.criteria,
        actual: null,
        message: `The judge could not be asked: ${(error as Error).message}`,
      });
    }
  }
  return { status: failures.length === 0 ? "passed" : "failed", failures, skippedChecks };
}
