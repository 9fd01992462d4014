import { AgentSpec, TestCase, type RunEvent, type TestCaseInput } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../catalog/tool.js";
import { OfflineModel } from "../llm/offline/offline-model.js";
import { ReactPlanner } from "../loop/react-planner.js";
import { ScriptedClient } from "../testing/scripted-client.js";
import { createTestCaseFromRun } from "./create-test-case-from-run.js";
import { getStatusFromEvents } from "./run-facts.js";
import { runTestCase } from "./run-test-case.js";

/** An agent with a counting module tool (`lookup`) and a mock tool (`format`). */
function createAgent() {
  const calls: unknown[] = [];
  const lookup = defineTool({
    name: "lookup",
    desc: "Look a city up",
    args: z.object({ city: z.string() }),
    out: z.object({ temp: z.number() }),
    sideEffects: "read",
    run: (args) => {
      calls.push(args);
      return { temp: 20 + calls.length };
    },
  });
  const spec = AgentSpec.parse({
    version: 1,
    id: "weather",
    name: "Weather",
    llm: { provider: "offline", model: "offline" },
    tools: [
      { name: "lookup", desc: "Look a city up", impl: { kind: "module", ref: "lookup" } },
      {
        name: "format",
        desc: "Format a reading",
        argsSchema: { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] },
        outSchema: { type: "object", properties: { text: { type: "string" } } },
        impl: { kind: "mock", output: { text: "It is {{args.temp}} degrees" } },
      },
    ],
  });
  return { spec, calls, moduleTools: new Map([["lookup", lookup]]) };
}

const script = (city = "Paris", temp = 21) => [
  { next_node: "lookup", args: { city } },
  { next_node: "format", args: { temp } },
  { next_node: "final_response", args: { answer: `It is ${temp} degrees in ${city}` } },
];

/** Runs the agent once with a scripted model and saves the run as a case. */
async function recordCase(overrides: Partial<TestCaseInput> = {}): Promise<TestCase> {
  const { spec, moduleTools } = createAgent();
  const events: RunEvent[] = [];
  await ReactPlanner.fromSpec(spec, { llm: new ScriptedClient(script()), moduleTools }).run(
    "Weather in Paris?",
    {
      onEvent: (event) => events.push(event),
    },
  );
  const testCase = createTestCaseFromRun({
    run: { id: "run_1", query: "Weather in Paris?", status: getStatusFromEvents(events) },
    events,
    id: "paris",
    toolNames: spec.tools.map((tool) => tool.name),
  });
  return TestCase.parse({ ...testCase, ...overrides });
}

describe("createTestCaseFromRun", () => {
  it("keeps the query, the tool results as mocks, the replies and pre-filled expectations", async () => {
    const testCase = await recordCase();
    expect(testCase).toMatchObject({
      id: "paris",
      query: "Weather in Paris?",
      llm: "recorded",
      sourceRunId: "run_1",
      mocks: [
        { tool: "lookup", args: { city: "Paris" }, output: { temp: 21 } },
        { tool: "format", args: { temp: 21 }, output: { text: "It is 21 degrees" } },
      ],
      expect: {
        status: "finished",
        trajectory: { tools: ["lookup", "format"], order: "exact" },
        answer: { equals: "It is 21 degrees in Paris" },
      },
    });
    expect(testCase.llmReplies?.map((reply) => JSON.parse(reply.content) as unknown)).toEqual(script());
  });
});

describe("runTestCase", () => {
  it("recorded model and mocks: passes without calling the tool or a model", async () => {
    const { spec, calls, moduleTools } = createAgent();
    const live = new ScriptedClient([]);
    const { result } = await runTestCase({ spec, testCase: await recordCase(), llm: live, moduleTools });
    expect(result).toMatchObject({ caseId: "paris", status: "passed", failures: [], llmCalls: 3 });
    expect(calls).toEqual([]);
    expect(live.calls).toEqual([]);
  });

  it("live model: asks the agent's model, and fails when it decides otherwise", async () => {
    const { spec, moduleTools } = createAgent();
    const testCase = await recordCase({ llm: "live" });
    const same = new ScriptedClient(script());
    expect((await runTestCase({ spec, testCase, llm: same, moduleTools })).result.status).toBe("passed");
    expect(same.calls).toHaveLength(3);
    const other = new ScriptedClient([{ next_node: "final_response", args: { answer: "No idea" } }]);
    const { result } = await runTestCase({ spec, testCase, llm: other, moduleTools });
    expect(result.status).toBe("failed");
    expect(result.failures.map((failure) => failure.check)).toEqual(["trajectory.exact", "answer.equals"]);
  });

  it("an unmatched call under mocks fails with unexpected_tool_call {tool, args}; the tool never runs", async () => {
    const { spec, calls, moduleTools } = createAgent();
    const testCase = await recordCase({ llm: "live" });
    const { result } = await runTestCase({
      spec,
      testCase,
      llm: new ScriptedClient(script("Rome")),
      moduleTools,
    });
    expect(calls).toEqual([]);
    expect(result.failures[0]).toMatchObject({
      check: "unexpected_tool_call",
      actual: { tool: "lookup", args: { city: "Rome" } },
    });
  });

  it('"any" args match whatever the call sends; allowLiveTools runs the real tool for the rest', async () => {
    const { spec, calls, moduleTools } = createAgent();
    const recorded = await recordCase({ llm: "live" });
    const anyArgs = TestCase.parse({
      ...recorded,
      mocks: recorded.mocks.map((mock) => (mock.tool === "lookup" ? { ...mock, args: "any" } : mock)),
      expect: { status: "finished", trajectory: { tools: ["lookup", "format"] } },
    });
    const rome = await runTestCase({
      spec,
      testCase: anyArgs,
      llm: new ScriptedClient(script("Rome")),
      moduleTools,
    });
    expect(rome.result.failures).toEqual([]);
    expect(calls).toEqual([]);
    const live = TestCase.parse({ ...anyArgs, mocks: [anyArgs.mocks[1]], allowLiveTools: true });
    const { result } = await runTestCase({
      spec,
      testCase: live,
      llm: new ScriptedClient(script("Oslo")),
      moduleTools,
    });
    expect(result.failures).toEqual([]);
    expect(calls).toEqual([{ city: "Oslo" }]);
  });

  it("a case without mocks runs its tools live", async () => {
    const { spec, calls, moduleTools } = createAgent();
    const testCase = TestCase.parse({ ...(await recordCase()), mocks: [], expect: {} });
    await runTestCase({ spec, testCase, llm: new ScriptedClient([]), moduleTools });
    expect(calls).toEqual([{ city: "Paris" }]);
  });

  it("a recorded model out of replies fails the run, reported as the status check", async () => {
    const { spec, moduleTools } = createAgent();
    const recorded = await recordCase();
    const testCase = TestCase.parse({ ...recorded, llmReplies: recorded.llmReplies?.slice(0, 2) });
    const { result } = await runTestCase({ spec, testCase, llm: new ScriptedClient([]), moduleTools });
    expect(result.status).toBe("failed");
    expect(result.failures[0]).toMatchObject({ check: "status", actual: "failed" });
    expect(result.failures[0]?.message).toContain("script_exhausted");
  });

  it("names tools the agent lacks per case, and still runs it", async () => {
    const { spec, moduleTools } = createAgent();
    const recorded = await recordCase();
    const testCase = TestCase.parse({
      ...recorded,
      expect: { ...recorded.expect, trajectory: { tools: ["lookup", "geocode"], order: "subset" } },
    });
    const { result } = await runTestCase({ spec, testCase, llm: new ScriptedClient([]), moduleTools });
    expect(result.failures.map((failure) => failure.check)).toEqual(["unknown_tool", "trajectory.subset"]);
    expect(result.runId).not.toBeNull();
  });

  it("the judge is skipped on the offline model and asked otherwise", async () => {
    const { spec, moduleTools } = createAgent();
    const recorded = await recordCase();
    const testCase = TestCase.parse({
      ...recorded,
      expect: { answer: { judge: { criteria: "States a temperature in Celsius" } } },
    });
    const offline = await runTestCase({
      spec,
      testCase,
      llm: new ScriptedClient([]),
      moduleTools,
      judgeLlm: () => new OfflineModel(),
    });
    expect(offline.result.status).toBe("passed");
    expect(offline.result.skippedChecks).toEqual([
      { check: "answer.judge", reason: expect.stringContaining("offline model") as string },
    ]);
    const judge = new ScriptedClient([{ pass: false, reason: "No unit is given" }]);
    const models: (string | undefined)[] = [];
    const graded = await runTestCase({
      spec,
      testCase: TestCase.parse({
        ...testCase,
        expect: { answer: { judge: { criteria: "States a unit", model: "grader" } } },
      }),
      llm: new ScriptedClient([]),
      moduleTools,
      judgeLlm: (model) => (models.push(model), judge),
    });
    expect(models).toEqual(["grader"]);
    expect(graded.result.failures).toEqual([
      expect.objectContaining({
        check: "answer.judge",
        message: "The judge failed the answer: No unit is given",
      }),
    ]);
    expect(JSON.stringify(judge.calls[0]?.messages)).toContain("It is 21 degrees in Paris");
  });
});
