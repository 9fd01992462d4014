import { describe, expect, it } from "vitest";
import * as internal from "./internal.js";
import * as planner from "./index.js";

describe("the public surface", () => {
  it("exports what code built on the planner needs, and nothing more (values; types are checked by tsc)", () => {
    expect(Object.keys(planner).sort()).toMatchInlineSnapshot(`
      [
        "CATALOG_ERROR_CODES",
        "Catalog",
        "CatalogError",
        "DEFAULT_API_KEY_ENV",
        "DEFAULT_LLM_TIMEOUT_MS",
        "DEFAULT_OPCODE_HANDLERS",
        "DEFAULT_OPENAI_BASE_URL",
        "DEFAULT_PRICE_TABLE",
        "DEFAULT_SESSION_CONTEXT_TOKENS",
        "InMemoryStateStore",
        "LLM_ERROR_CODES",
        "LlmError",
        "OfflineModel",
        "OpenAiClient",
        "PLANNER_ERROR_CODES",
        "PlannerError",
        "REDACTED",
        "RETRYABLE_LLM_ERROR_CODES",
        "ReactPlanner",
        "RecordedLlmClient",
        "SESSION_CONTEXT_BUDGET_SHARE",
        "StreamRedactor",
        "TestCaseToolError",
        "ToolDefinitionError",
        "ToolPauseSignal",
        "applySessionTaskOutcome",
        "buildCatalog",
        "checkGuardSample",
        "compactConversation",
        "createLlmClient",
        "createMockToolRunner",
        "createRecordedCallMatcher",
        "createTestCaseFromRun",
        "createTestCaseTools",
        "createTextRedactor",
        "defaultApprovalGate",
        "defineGuardCheck",
        "defineTool",
        "describePause",
        "evaluateTestCase",
        "getCanonicalJson",
        "getLlmRequestKey",
        "getPartialSecretLength",
        "getRecordPrefix",
        "getRecordedSteps",
        "getRunFacts",
        "getSessionContextBudget",
        "getSessionContextMeta",
        "getSessionMergedResults",
        "getSessionWaitResult",
        "getTestCaseLlm",
        "getToolCallKey",
        "isGuardCheckDefinition",
        "isLlmError",
        "isPlannerError",
        "redactText",
        "runTestCase",
        "runTestSuite",
        "sealSessionTurn",
        "spawnSessionTask",
        "testToolCall",
      ]
    `);
  });

  it("keeps the engine's pieces behind ./internal, apart from the root", () => {
    const root = new Set(Object.keys(planner));
    expect(Object.keys(internal).filter((name) => root.has(name))).toEqual([]);
  });
});
