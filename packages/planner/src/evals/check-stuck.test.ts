import { AgentSpec, TestCase } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { ScriptedClient } from "../testing/scripted-client.js";
import { runTestCase } from "./run-test-case.js";

const spec = AgentSpec.parse({
  version: 1,
  id: "docs-desk",
  name: "Docs desk",
  planner: { stuck: { action: "finish" } },
  tools: [
    {
      name: "search_docs",
      desc: "Search the docs",
      argsSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      impl: { kind: "mock", output: { hits: ["Refunds take 5 days."] } },
    },
  ],
});

const search = (q: string) => ({ next_node: "search_docs", args: { q } });
const final = { next_node: "final_response", args: { answer: "Refunds take 5 days." } };
const looping = () => new ScriptedClient([search("refund"), search("refund"), search("refund"), final]);
const straight = () => new ScriptedClient([search("refund"), search("refund policy"), final]);

function createCase(stuck: boolean): TestCase {
  return TestCase.parse({
    id: "refunds",
    name: "Refunds",
    query: "How long do refunds take?",
    expect: { stuck },
  });
}

describe("expect.stuck in a test case", () => {
  it("true passes when the run was found stuck, and fails with check stuck when it was not", async () => {
    const passed = await runTestCase({ spec, testCase: createCase(true), llm: looping() });
    expect(passed.result).toMatchObject({ status: "passed", failures: [] });
    const failed = await runTestCase({ spec, testCase: createCase(true), llm: straight() });
    expect(failed.result.status).toBe("failed");
    expect(failed.result.failures).toEqual([
      {
        check: "stuck",
        expected: true,
        actual: false,
        message: "The run was never found stuck, expected a stuck_detected event.",
      },
    ]);
  });

  it("false fails when the run was found stuck, saying what repeated", async () => {
    const failed = await runTestCase({ spec, testCase: createCase(false), llm: looping() });
    expect(failed.result.failures).toEqual([
      {
        check: "stuck",
        expected: false,
        actual: [{ pattern: "repeat", tools: ["search_docs"], count: 3, action: "finish" }],
        message:
          "The run was found stuck (search_docs called 3 times with the same arguments; finish), expected it not to be.",
      },
    ]);
    const passed = await runTestCase({ spec, testCase: createCase(false), llm: straight() });
    expect(passed.result.status).toBe("passed");
  });

  it("is refused when it is not a boolean", () => {
    const parsed = TestCase.safeParse({ id: "x", name: "x", query: "q", expect: { stuck: "yes" } });
    expect(parsed.success).toBe(false);
  });
});
