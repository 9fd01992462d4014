import { z } from "zod";
import { GuardExpect } from "./guards.js";
import { JsonSchema } from "./agent-spec.js";
import { RunStatus } from "./api.js";
import { Slug } from "./names.js";

/**
 * Tests from runs (issue 23): a test case is a query plus recorded mocks (tool results, optionally the
 * model's replies) plus expectations; a suite is an agent's cases, exported as `<agent>.tests.json`.
 */

/** A case id: letters, digits, `_` and `-`, as `case_` + hex when the server makes one. */
export const TestCaseId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/, "must be letters, digits, _ and - (at most 80), e.g. case_1a2b");
export type TestCaseId = z.infer<typeof TestCaseId>;

/** A recorded tool result served in place of the tool: matched by tool and args (or `"any"` args), in order. */
export const ToolMock = z.strictObject({
  tool: z.string().min(1).max(200),
  /** The args the call must have (compared exactly), or `"any"`. */
  args: z.union([z.literal("any"), z.record(z.string(), z.unknown())]),
  /** What the tool returns. */
  output: z.unknown().optional(),
  /** The failure the tool reports instead, as recorded (`tool_error`). */
  error: z.strictObject({ code: z.string().min(1).max(100), message: z.string().max(10_000) }).optional(),
});
export type ToolMock = z.infer<typeof ToolMock>;

/** A reply of the model as recorded, served in order when the case's `llm` is `"recorded"`. */
export const RecordedLlmReply = z.strictObject({
  content: z.string().max(1_000_000),
  promptTokens: z.int().nonnegative().optional(),
  completionTokens: z.int().nonnegative().optional(),
});
export type RecordedLlmReply = z.infer<typeof RecordedLlmReply>;

export const TRAJECTORY_ORDERS = ["exact", "in_order", "any_order", "subset"] as const;
export const TrajectoryOrder = z.enum(TRAJECTORY_ORDERS);
export type TrajectoryOrder = z.infer<typeof TrajectoryOrder>;

export const TrajectoryExpect = z.strictObject({
  /** The tools the run calls. */
  tools: z.array(z.string().min(1).max(200)).max(500),
  /**
   * `exact`: these calls and no others, in this order; `in_order`: these in this order, others between;
   * `any_order`: these (each as often as listed), in any order, and no others; `subset`: at least these.
   */
  order: TrajectoryOrder.default("exact"),
  /** Tools the run must never call. */
  forbidden: z.array(z.string().min(1).max(200)).max(500).optional(),
  maxLlmCalls: z.int().nonnegative().optional(),
  maxToolCalls: z.int().nonnegative().optional(),
});
export type TrajectoryExpect = z.infer<typeof TrajectoryExpect>;

export const AnswerExpect = z.strictObject({
  equals: z.string().max(100_000).optional(),
  /** Every one of these appears in the answer. */
  contains: z.array(z.string().min(1).max(10_000)).max(100).optional(),
  /** A JavaScript regular expression the answer matches. */
  regex: z.string().min(1).max(2_000).optional(),
  /** The answer (parsed as JSON when it is a string) fits this JSON Schema. */
  jsonSchema: JsonSchema.optional(),
  /** An LLM grades the answer against `criteria`; skipped on the offline model. */
  judge: z
    .strictObject({ criteria: z.string().min(1).max(10_000), model: z.string().min(1).max(200).optional() })
    .optional(),
});
export type AnswerExpect = z.infer<typeof AnswerExpect>;

export const BudgetExpect = z.strictObject({
  maxTokens: z.int().nonnegative().optional(),
  maxCostUsd: z.number().nonnegative().optional(),
  maxDurationMs: z.number().nonnegative().optional(),
});
export type BudgetExpect = z.infer<typeof BudgetExpect>;

export const TestExpect = z.strictObject({
  status: RunStatus.optional(),
  trajectory: TrajectoryExpect.optional(),
  answer: AnswerExpect.optional(),
  budget: BudgetExpect.optional(),
  /** `true`: the run must be found stuck (a `stuck_detected` event); `false`: it must not be. */
  stuck: z.boolean().optional(),
  /** Guards that must have decided so (a `guard_verdict` event with that guard and verdict). */
  guards: z.array(GuardExpect).max(100).optional(),
});
export type TestExpect = z.infer<typeof TestExpect>;

export const TestCaseLlm = z.enum(["recorded", "live"]);
export type TestCaseLlm = z.infer<typeof TestCaseLlm>;

export const TestCase = z.strictObject({
  id: TestCaseId,
  name: z.string().min(1).max(200),
  query: z.string().min(1).max(100_000),
  /** The keys (never the values) of the toolContext the recorded run had. */
  toolContextKeys: z.array(z.string().max(200)).max(100).default([]),
  /** Recorded tool results; none means tools run live. */
  mocks: z.array(ToolMock).max(1_000).default([]),
  llm: TestCaseLlm.default("live"),
  /** The model's recorded replies, in order, for `llm: "recorded"`. */
  llmReplies: z.array(RecordedLlmReply).max(1_000).optional(),
  /** A tool call that no mock matches runs the real tool instead of failing the case. */
  allowLiveTools: z.boolean().optional(),
  expect: TestExpect.default({}),
  /** The run the case was saved from. */
  sourceRunId: z.string().max(200).optional(),
});
export type TestCase = z.infer<typeof TestCase>;
export type TestCaseInput = z.input<typeof TestCase>;

/** An agent's suite, the body of `PUT /api/agents/:id/tests` and of `<agent>.tests.json`. */
export const TestSuite = z
  .strictObject({
    version: z.literal(1).default(1),
    agentId: Slug.optional(),
    cases: z.array(TestCase).max(1_000),
  })
  .superRefine((suite, context) => {
    const seen = new Set<string>();
    suite.cases.forEach((testCase, index) => {
      if (seen.has(testCase.id))
        context.addIssue({
          code: "custom",
          path: ["cases", index, "id"],
          message: `case id "${testCase.id}" is used twice`,
        });
      seen.add(testCase.id);
    });
  });
export type TestSuite = z.infer<typeof TestSuite>;
export type TestSuiteInput = z.input<typeof TestSuite>;

export const SaveTestRequest = z.strictObject({
  fromRunId: z.string().min(1).max(200),
  name: z.string().min(1).max(200).optional(),
  llm: TestCaseLlm.optional(),
});
export type SaveTestRequest = z.infer<typeof SaveTestRequest>;

export const StartTestRunRequest = z.strictObject({
  agentVersion: z.int().positive().optional(),
  caseIds: z.array(TestCaseId).min(1).max(1_000).optional(),
  concurrency: z.int().min(1).max(32).optional(),
});
export type StartTestRunRequest = z.infer<typeof StartTestRunRequest>;

/** One check that did not hold: `message` says it in words. */
export const TestFailure = z.object({
  check: z.string(),
  expected: z.unknown(),
  actual: z.unknown(),
  message: z.string().optional(),
});
export type TestFailure = z.infer<typeof TestFailure>;

export const TestCaseStatus = z.enum(["queued", "running", "passed", "failed", "skipped"]);
export type TestCaseStatus = z.infer<typeof TestCaseStatus>;

export const TestCaseResult = z.object({
  caseId: z.string(),
  name: z.string().optional(),
  runId: z.string().nullable(),
  status: TestCaseStatus,
  failures: z.array(TestFailure),
  /** Checks that could not be made here (the judge on the offline model), with why. */
  skippedChecks: z.array(z.object({ check: z.string(), reason: z.string() })).optional(),
  llmCalls: z.int().nonnegative(),
  tokens: z.int().nonnegative(),
  costUsd: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
});
export type TestCaseResult = z.infer<typeof TestCaseResult>;

/** `interrupted`: the server stopped while it ran (marked so at the next start; its unfinished cases skipped). */
export const TestRunStatus = z.enum(["running", "passed", "failed", "cancelled", "interrupted"]);
export type TestRunStatus = z.infer<typeof TestRunStatus>;

export const TestTotals = z.object({
  passed: z.int().nonnegative(),
  failed: z.int().nonnegative(),
  skipped: z.int().nonnegative(),
});
export type TestTotals = z.infer<typeof TestTotals>;

/** `GET /api/test-runs/:id`, and the `test_run_updated` socket message. */
export const TestRunRecord = z.object({
  id: z.string(),
  agentId: Slug,
  agentVersion: z.int().positive(),
  status: TestRunStatus,
  totals: TestTotals,
  cases: z.array(TestCaseResult),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TestRunRecord = z.infer<typeof TestRunRecord>;

export const TestRunsListResponse = z.object({
  testRuns: z.array(TestRunRecord.omit({ cases: true })),
});
export type TestRunsListResponse = z.infer<typeof TestRunsListResponse>;

/**
 * Names used by more than one case, each with the indices of its cases: a suite's cases are told apart by
 * name in reports (the Tests tab, JUnit), so a save with one of these is refused.
 */
export function findDuplicateCaseNames(
  cases: readonly Pick<TestCase, "name">[],
): { name: string; indices: number[] }[] {
  const byName = new Map<string, number[]>();
  cases.forEach((testCase, index) => {
    const key = testCase.name.trim();
    byName.set(key, [...(byName.get(key) ?? []), index]);
  });
  return [...byName]
    .filter(([, indices]) => indices.length > 1)
    .map(([name, indices]) => ({ name, indices }));
}

/** What a test run's cases add up to. */
export function getTestTotals(cases: readonly Pick<TestCaseResult, "status">[]): TestTotals {
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const result of cases) {
    if (result.status === "passed") totals.passed += 1;
    else if (result.status === "failed") totals.failed += 1;
    else if (result.status === "skipped") totals.skipped += 1;
  }
  return totals;
}
