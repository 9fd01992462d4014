import type { AgentSpec, RunEvent, TestCase, TestCaseResult } from "@waddle/protocol";
import type { ImplResolver, ToolDefinition } from "../catalog/tool.js";
import type { LlmClient } from "../llm/llm-client.js";
import { ReactPlanner, type FromSpecOptions } from "../loop/react-planner.js";
import { evaluateTestCase, type JudgeLlmFactory } from "./evaluate-test-case.js";
import { RecordedLlmClient } from "./recorded-llm-client.js";
import { getRunFacts, type RunFacts } from "./run-facts.js";
import { createTestCaseTools } from "./test-case-tools.js";

/** What a test case runs with in-process besides the agent: the planner's own injectables. */
export interface RunTestCaseOptions {
  spec: AgentSpec;
  testCase: TestCase;
  /** The agent's model, for `llm: "live"` cases (recorded cases replay the case's replies). */
  llm: LlmClient;
  moduleTools?: ReadonlyMap<string, ToolDefinition>;
  resolveImpl?: ImplResolver;
  judgeLlm?: JudgeLlmFactory;
  signal?: AbortSignal;
  runId?: string;
  /** More planner options (clock, ids, price table, state store). */
  planner?: Omit<FromSpecOptions, "llm" | "moduleTools" | "resolveImpl">;
  onEvent?: (event: RunEvent) => void;
}

/** A case's result with the run's events and facts, for reports that want more than the result. */
export interface TestCaseRun {
  result: TestCaseResult;
  events: RunEvent[];
  facts: RunFacts;
}

/** The model a case talks to: its recorded replies, or the agent's own model. */
export function getTestCaseLlm(testCase: TestCase, live: LlmClient): LlmClient {
  return testCase.llm === "recorded"
    ? new RecordedLlmClient(testCase.llmReplies ?? [], { model: live.model })
    : live;
}

/**
 * Runs one test case in this process (the CLI, benchmarks, the examples' suites): the agent's planner with
 * the case's mocks and model, to its end, then decides it with `evaluateTestCase`. A planner that throws
 * (a catalog the case cannot build, a model out of replies) is a failed run, never a throw.
 */
export async function runTestCase(options: RunTestCaseOptions): Promise<TestCaseRun> {
  const { spec, testCase } = options;
  const events: RunEvent[] = [];
  const started = Date.now();
  let thrown: { code: string; message: string } | undefined;
  let answer: unknown;
  let status: RunFacts["status"] | undefined;
  try {
    const tools = createTestCaseTools({
      spec,
      testCase,
      ...(options.moduleTools ? { moduleTools: options.moduleTools } : {}),
      ...(options.resolveImpl ? { resolveImpl: options.resolveImpl } : {}),
    });
    const planner = ReactPlanner.fromSpec(tools.spec, {
      ...options.planner,
      llm: getTestCaseLlm(testCase, options.llm),
      moduleTools: tools.moduleTools,
      ...(tools.resolveImpl ? { resolveImpl: tools.resolveImpl } : {}),
    });
    const outcome = await planner.run(testCase.query, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.runId ? { runId: options.runId } : {}),
      onEvent: (event) => {
        events.push(event);
        options.onEvent?.(event);
      },
    });
    if (outcome.kind === "finish") {
      answer = outcome.payload.answer;
      status = outcome.reason === "cancelled" ? "cancelled" : "finished";
    } else status = "paused";
  } catch (error) {
    const fields = error as { code?: unknown; message?: unknown };
    thrown = {
      code: typeof fields.code === "string" ? fields.code : "internal_error",
      message: typeof fields.message === "string" ? fields.message : String(error),
    };
    status = "failed";
  }
  const facts = getRunFacts(events, { status, answer, durationMs: Date.now() - started });
  if (thrown && !facts.error) facts.error = thrown;
  const verdict = await evaluateTestCase({
    testCase,
    toolNames: spec.tools.map((tool) => tool.name),
    facts,
    ...(options.judgeLlm ? { judgeLlm: options.judgeLlm } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const result: TestCaseResult = {
    caseId: testCase.id,
    name: testCase.name,
    runId: events[0]?.runId ?? options.runId ?? null,
    status: verdict.status,
    failures: verdict.failures,
    ...(verdict.skippedChecks.length > 0 ? { skippedChecks: verdict.skippedChecks } : {}),
    llmCalls: facts.llmCalls,
    tokens: facts.tokens,
    costUsd: facts.costUsd,
    durationMs: Math.round(facts.durationMs),
  };
  return { result, events, facts };
}
