import {
  AgentSpec,
  type PlannerFinishResult,
  type PlannerPauseResult,
  type StuckOptionsInput,
  type ToolSpecInput,
} from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import type { ReactPlanner } from "./react-planner.js";
import { answer, call, createEventLog, createScriptedPlanner } from "../testing/run-harness.js";

function finished(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerFinishResult {
  if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
  return result;
}

function paused(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerPauseResult {
  if (result.kind !== "pause") throw new Error(`expected a pause, got a finish (${result.reason})`);
  return result;
}

const tool = (name: string, impl: ToolSpecInput["impl"], extra: Partial<ToolSpecInput> = {}) => ({
  name,
  desc: name,
  sideEffects: "read" as const,
  argsSchema: { type: "object", properties: { q: { type: "string" }, id: { type: "string" } } },
  outSchema: { type: "object" },
  impl,
  ...extra,
});

const TOOLS = [
  tool("search_docs", { kind: "mock", output: { hits: ["Refunds take 5 days."] } }),
  tool("fetch_page", { kind: "mock", output: { text: "The refunds page." } }),
  tool("find_orders", { kind: "mock", output: { orders: [] } }),
  tool(
    "lookup",
    { kind: "mock", failFirst: 100, failMessage: "upstream 503" },
    { retry: { maxAttempts: 1, backoffMs: 0, maxBackoffMs: 0 } },
  ),
];

function createSpec(stuck: StuckOptionsInput = {}, planner: Record<string, unknown> = {}): AgentSpec {
  return AgentSpec.parse({
    version: 1,
    id: "stuck-test",
    name: "Stuck test",
    planner: { maxIters: 20, stuck, ...planner },
    tools: TOOLS,
  });
}

/** The calls that make each pattern, with `repeats: 3`. */
const PATTERNS = {
  repeat: {
    calls: [
      call("search_docs", { q: "refund" }),
      call("search_docs", { q: "refund" }),
      call("search_docs", { q: "refund" }),
    ],
    tools: ["search_docs"],
    count: 3,
  },
  alternate: {
    calls: [
      call("search_docs", { q: "refund" }),
      call("fetch_page", { id: "refunds" }),
      call("search_docs", { q: "refund" }),
      call("fetch_page", { id: "refunds" }),
    ],
    tools: ["search_docs", "fetch_page"],
    count: 2,
  },
  error: {
    calls: [call("lookup", { id: "1" }), call("lookup", { id: "2" }), call("lookup", { id: "3" })],
    tools: ["lookup"],
    count: 3,
  },
  empty: {
    calls: [
      call("find_orders", { q: "a" }),
      call("find_orders", { q: "b" }),
      call("find_orders", { q: "c" }),
    ],
    tools: ["find_orders"],
    count: 3,
  },
} as const;

const cases = Object.entries(PATTERNS).map(([pattern, script]) => ({ pattern, ...script }));

describe("the stuck-run breaker: each pattern with each action", () => {
  it.each(cases)("$pattern + nudge: tells the model once, and the run goes on", async (stuck) => {
    const { planner, client } = createScriptedPlanner(createSpec({ action: "nudge" }), [
      ...stuck.calls,
      answer("Refunds take 5 days."),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("refund status?", { onEvent: log.onEvent }));
    expect(result.reason).toBe("answer_complete");
    expect(log.ofType("stuck_detected").map((event) => event.data)).toEqual([
      expect.objectContaining({
        pattern: stuck.pattern,
        tools: stuck.tools,
        count: stuck.count,
        action: "nudge",
      }),
    ]);
    const lastMessage = client.calls.at(-1)!.messages.at(-1)!;
    expect(lastMessage.role).toBe("user");
    expect(lastMessage.content).toContain("You are going in circles");
    expect(lastMessage.content).toContain("Change course");
  });

  it.each(cases)("$pattern + finish: ends with reason stuck and the model's last answer", async (stuck) => {
    const { planner, client } = createScriptedPlanner(createSpec({ action: "finish" }), [
      ...stuck.calls,
      answer("What I found: refunds take 5 days."),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("refund status?", { onEvent: log.onEvent }));
    expect(result.reason).toBe("stuck");
    expect(result.payload.answer).toBe("What I found: refunds take 5 days.");
    expect(result.payload.requires_followup).toBe(true);
    expect(client.calls.at(-1)!.purpose).toBe("answer");
    expect(log.ofType("stuck_detected").map((event) => event.data.action)).toEqual(["finish"]);
    expect(log.types().filter((type) => type === "constraint_violation")).toEqual([]);
  });

  it.each(cases)("$pattern + pause: pauses with reason stuck; approve goes on", async (stuck) => {
    const { planner } = createScriptedPlanner(createSpec({ action: "pause" }), [
      ...stuck.calls,
      // After the approval only new steps count: one more of the same is not a loop yet.
      stuck.calls[0],
      answer("Done after all."),
    ]);
    const log = createEventLog();
    const pause = paused(await planner.run("refund status?", { onEvent: log.onEvent }));
    expect(pause.reason).toBe("stuck");
    expect(pause.payload).toMatchObject({ pattern: stuck.pattern, tools: stuck.tools, count: stuck.count });
    expect(String(pause.payload.message)).toMatch(/^The run looks stuck: /);
    const result = finished(
      await planner.resume(pause.resumeToken, { decision: "approve", onEvent: log.onEvent }),
    );
    expect(result.reason).toBe("answer_complete");
    expect(result.payload.answer).toBe("Done after all.");
    expect(log.ofType("stuck_detected")).toHaveLength(1);
  });
});

describe("the stuck-run breaker: escalation and stopping", () => {
  it("a nudge that did not help finishes the run at the next repeat", async () => {
    const search = call("search_docs", { q: "refund" });
    const { planner } = createScriptedPlanner(createSpec(), [
      search,
      search,
      search,
      call("fetch_page", { id: "refunds" }),
      search,
      answer("Refunds take 5 days, as far as I found."),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("refund status?", { onEvent: log.onEvent }));
    expect(result.reason).toBe("stuck");
    expect(result.payload.answer).toBe("Refunds take 5 days, as far as I found.");
    expect(log.ofType("stuck_detected").map((event) => [event.data.action, event.data.count])).toEqual([
      ["nudge", 3],
      ["finish", 4],
    ]);
  });

  it("finish never ends with an empty answer: without one from the model, the latest result", async () => {
    const search = call("search_docs", { q: "refund" });
    const { planner } = createScriptedPlanner(createSpec({ action: "finish" }), [
      search,
      search,
      search,
      call("search_docs", { q: "again" }),
    ]);
    const result = finished(await planner.run("refund status?"));
    expect(result.reason).toBe("stuck");
    expect(result.payload.answer).toContain("search_docs called 3 times with the same arguments");
    expect(result.payload.answer).toContain("Refunds take 5 days.");
  });

  it("reject on a stuck pause stops the run with reason stuck and what it found", async () => {
    const search = call("search_docs", { q: "refund" });
    const { planner } = createScriptedPlanner(createSpec({ action: "pause" }), [search, search, search]);
    const pause = paused(await planner.run("refund status?"));
    const result = finished(
      await planner.resume(pause.resumeToken, { decision: "reject", userInput: "it is looping" }),
    );
    expect(result.reason).toBe("stuck");
    expect(result.payload.answer).toContain("A person stopped the run after it was found going in circles");
    expect(result.payload.answer).toContain("it is looping");
    expect(result.payload.answer).toContain("Refunds take 5 days.");
  });

  it("a run that cannot pause finishes instead of pausing", async () => {
    const search = call("search_docs", { q: "refund" });
    const { planner } = createScriptedPlanner(createSpec({ action: "pause" }, { pauseEnabled: false }), [
      search,
      search,
      search,
      answer("Best so far."),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("refund status?", { onEvent: log.onEvent }));
    expect(result.reason).toBe("stuck");
    expect(log.ofType("stuck_detected")[0]?.data.action).toBe("finish");
  });

  it("does nothing when disabled, and counts to `repeats`", async () => {
    const search = call("search_docs", { q: "refund" });
    const off = createScriptedPlanner(createSpec({ enabled: false }), [
      search,
      search,
      search,
      search,
      answer("ok"),
    ]);
    const offLog = createEventLog();
    expect(finished(await off.planner.run("q", { onEvent: offLog.onEvent })).reason).toBe("answer_complete");
    expect(offLog.ofType("stuck_detected")).toEqual([]);
    const five = createScriptedPlanner(createSpec({ repeats: 5, action: "finish" }), [
      search,
      search,
      search,
      search,
      answer("ok"),
    ]);
    expect(finished(await five.planner.run("q")).reason).toBe("answer_complete");
  });
});

describe("the stuck-run breaker: what is not a loop", () => {
  it("calls of one tool that differ only in their arguments", async () => {
    const { planner } = createScriptedPlanner(createSpec({ action: "finish" }), [
      ...["a", "b", "c", "d", "e"].map((q) => call("search_docs", { q })),
      answer("Five searches."),
    ]);
    const log = createEventLog();
    expect(finished(await planner.run("q", { onEvent: log.onEvent })).reason).toBe("answer_complete");
    expect(log.ofType("stuck_detected")).toEqual([]);
  });

  it("parallel fan-out over the same tool with different arguments, plan after plan", async () => {
    const plan = (ids: string[]) => ({
      next_node: "parallel",
      args: { steps: ids.map((id) => ({ node: "fetch_page", args: { id } })) },
    });
    const { planner } = createScriptedPlanner(createSpec({ action: "finish" }), [
      plan(["1", "2", "3"]),
      plan(["4", "5", "6"]),
      plan(["7", "8", "9"]),
      answer("Nine pages."),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("q", { onEvent: log.onEvent }));
    expect(result.reason).toBe("answer_complete");
    expect(log.ofType("tool_start")).toHaveLength(9);
    expect(log.ofType("stuck_detected")).toEqual([]);
  });

  it("an auto-seq chain that runs the same call after each step of the model", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "stuck-auto-seq",
      name: "Auto-seq",
      planner: { maxIters: 20, stuck: { action: "finish" }, autoSeq: { enabled: true, execute: true } },
      tools: [
        tool(
          "start",
          { kind: "mock", output: { id: "fixed" } },
          { argsSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } },
        ),
        tool(
          "enrich",
          { kind: "mock", output: { id: "fixed", enriched: true } },
          {
            autoSeq: true,
            autoSeqExecute: true,
            argsSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
          },
        ),
      ],
    });
    const { planner } = createScriptedPlanner(spec, [
      call("start", { q: "1" }),
      call("start", { q: "2" }),
      call("start", { q: "3" }),
      answer("Three starts."),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("q", { onEvent: log.onEvent }));
    expect(result.reason).toBe("answer_complete");
    const enriched = log
      .ofType("tool_start")
      .filter((event) => event.data.tool === "enrich" && event.data.source === "auto_seq");
    const same = enriched.filter((event) => JSON.stringify(event.data.args) === '{"id":"fixed"}');
    expect(same).toHaveLength(3);
    expect(log.ofType("stuck_detected")).toEqual([]);
  });
});
