import { ToolSpec, type PlannerFinishResult, type ToolSpecInput } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Sleep } from "../util/abortable-sleep.js";
import { buildCatalog } from "../catalog/catalog.js";
import { ReactPlanner } from "./react-planner.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";
import { answer, call, createEventLog, createScriptedPlanner } from "../testing/run-harness.js";
import { ScriptedClient } from "../testing/scripted-client.js";
import { defineTool } from "../catalog/tool.js";

function finished(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerFinishResult {
  if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
  return result;
}

const flakySpec = (failFirst: number, retry?: ToolSpecInput["retry"]): ToolSpecInput => ({
  name: "fetch_report",
  desc: "Fetch the monthly report",
  sideEffects: "read",
  argsSchema: { type: "object", properties: { month: { type: "string" } }, required: ["month"] },
  outSchema: { type: "object", properties: { rows: { type: "integer" } }, required: ["rows"] },
  ...(retry === undefined ? {} : { retry }),
  impl: { kind: "mock", output: { rows: 42 }, failFirst, failMessage: "upstream 503" },
});

describe("ReactPlanner: tool retries", () => {
  it("retries a node that fails twice, with exponential backoff and jitter, then succeeds", async () => {
    const spec = loadExampleAgent("support-triage");
    const { planner, time, client } = createScriptedPlanner(
      { ...spec, tools: [...spec.tools, flakySpecParsed(2)] },
      [call("fetch_report", { month: "2025-01" }), answer("42 rows")],
      { random: () => 0.5 },
    );
    const log = createEventLog();
    const result = finished(await planner.run("report", { onEvent: log.onEvent }));
    expect(result.reason).toBe("answer_complete");
    const retries = log.ofType("tool_retry").map((event) => event.data);
    // Defaults: backoffMs 200, doubling; equal jitter with random 0.5 → 3/4 of the base.
    expect(retries.map((retry) => [retry.attempt, retry.delayMs, retry.error_code, retry.message])).toEqual([
      [2, 150, "tool_failed", "upstream 503"],
      [3, 300, "tool_failed", "upstream 503"],
    ]);
    expect(time.sleeps).toEqual([150, 300]);
    expect(log.ofType("tool_start").map((event) => event.data.attempt)).toEqual([1, 2, 3]);
    expect(log.ofType("tool_end")).toHaveLength(1);
    expect(JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "")).toEqual({
      observation: { rows: 42 },
    });
  });

  it("turns a failure after the last attempt into a failure observation", async () => {
    const spec = loadExampleAgent("support-triage");
    const { planner, client } = createScriptedPlanner(
      {
        ...spec,
        tools: [...spec.tools, flakySpecParsed(9, { maxAttempts: 2, backoffMs: 10, maxBackoffMs: 10 })],
      },
      [call("fetch_report", { month: "2025-01" }), answer("Could not fetch it.")],
    );
    const log = createEventLog();
    finished(await planner.run("report", { onEvent: log.onEvent }));
    const observed = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "") as Record<string, unknown>;
    expect(observed).toEqual({
      failure: {
        node: "fetch_report",
        args: { month: "2025-01" },
        error_code: "tool_failed",
        message: "upstream 503",
        suggestion: expect.any(String),
      },
    });
    expect(log.ofType("tool_error")).toHaveLength(1);
    expect(log.ofType("tool_retry")).toHaveLength(1);
  });

  it("re-plans onto another tool after a permanent failure (timeouts)", async () => {
    const spec = loadExampleAgent("cached-retrieval");
    // live_search's mock latency (5 s) never ends within its 400 ms timeout: sleeps that long wait for the abort.
    const hangingSleep: Sleep = (ms, signal) =>
      ms >= 1_000
        ? new Promise((_resolve, reject) =>
            signal?.addEventListener("abort", () => reject(signal.reason as Error)),
          )
        : Promise.resolve();
    const { planner, client } = createScriptedPlanner(
      spec,
      [
        call("live_search", { query: "refund policy" }),
        call("cached_index", { query: "refund policy" }),
        (entry) =>
          call("summarize", {
            query: "refund policy",
            docs: (JSON.parse(entry.messages.at(-1)?.content ?? "{}") as { observation: { docs: string[] } })
              .observation.docs,
          }),
        answer("Annual plans are refundable pro rata within 30 days."),
      ],
      { sleep: hangingSleep, clock: Date.now },
    );
    const log = createEventLog();
    const result = finished(await planner.run("What is the refund policy?", { onEvent: log.onEvent }));
    expect(result.reason).toBe("answer_complete");
    const failure = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "") as {
      failure: { error_code: string; node: string };
    };
    expect(failure.failure).toMatchObject({ node: "live_search", error_code: "timeout" });
    expect(log.ofType("tool_retry").map((event) => event.data.error_code)).toEqual(["timeout"]);
    expect(log.ofType("tool_end").map((event) => event.data.tool)).toEqual(["cached_index", "summarize"]);
    expect(log.ofType("tool_end")[1]?.data.observation).toMatchObject({
      summary: expect.stringContaining("Policy handbook"),
    });
  });
});

describe("ReactPlanner: cancellation", () => {
  it("reaches the tool through its signal and finishes cancelled even if the tool ignores it", async () => {
    let toolSignal: AbortSignal | undefined;
    const stuck = defineTool({
      name: "stuck",
      desc: "Never returns",
      args: z.object({}),
      out: z.object({}),
      run: (_args, context) => {
        toolSignal = context.signal;
        return new Promise<Record<string, never>>(() => undefined);
      },
    });
    const controller = new AbortController();
    const client = new ScriptedClient([call("stuck"), answer("never")]);
    const planner = new ReactPlanner({ llm: client, catalog: buildCatalog({ tools: [stuck] }) });
    const log = createEventLog();
    const pending = planner.run("x", {
      signal: controller.signal,
      onEvent: (event) => {
        log.onEvent(event);
        if (event.type === "tool_start") queueMicrotask(() => controller.abort());
      },
    });
    const result = finished(await pending);
    expect(result.reason).toBe("cancelled");
    expect(toolSignal?.aborted).toBe(true);
    expect(log.types().at(-1)).toBe("run_finished");
    expect(log.ofType("tool_error")[0]?.data.failure.error_code).toBe("cancelled");
    expect(client.calls).toHaveLength(1);
  });

  it("stops waiting for an LLM call that ignores the signal", async () => {
    const controller = new AbortController();
    const client = new ScriptedClient([() => new Promise<string>(() => undefined)]);
    const planner = new ReactPlanner({ llm: client, catalog: buildCatalog() });
    const pending = planner.run("x", { signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    expect(finished(await pending).reason).toBe("cancelled");
  });

  it("finishes cancelled at once when the signal is already aborted", async () => {
    const client = new ScriptedClient([answer("x")]);
    const planner = new ReactPlanner({ llm: client, catalog: buildCatalog() });
    const result = finished(await planner.run("x", { signal: AbortSignal.abort() }));
    expect(result.reason).toBe("cancelled");
    expect(client.calls).toHaveLength(0);
  });
});

describe("ReactPlanner: tool context", () => {
  it("gives tools their context, never shows it to the LLM or in events", async () => {
    const secret = "sk-live-0123456789";
    const leaky = defineTool({
      name: "leaky",
      desc: "Echoes what it should not",
      args: z.object({ mode: z.enum(["ok", "fail"]) }),
      out: z.object({ echoed: z.string(), user: z.string() }),
      run: ({ mode }, context) => {
        const key = context.toolContext.apiKey as string;
        if (mode === "fail") throw new Error(`401 for key ${key}`);
        return { echoed: `Bearer ${key}`, user: context.toolContext.userId as string };
      },
    });
    const client = new ScriptedClient([
      call("leaky", { mode: "ok" }),
      call("leaky", { mode: "fail" }),
      answer(`done ${secret}`),
    ]);
    const planner = new ReactPlanner({
      llm: client,
      catalog: buildCatalog({ tools: [leaky] }),
      options: { toolRetry: { maxAttempts: 1, backoffMs: 0, maxBackoffMs: 0 } },
    });
    const log = createEventLog();
    const result = finished(
      await planner.run("x", {
        toolContext: { apiKey: secret, userId: "user-7" },
        onEvent: log.onEvent,
        contextMeta: { note: secret },
      }),
    );
    const everything = JSON.stringify({
      events: log.events,
      prompts: client.calls.map((entry) => entry.messages),
      result,
    });
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain("user-7");
    expect(everything).toContain("[redacted]");
    expect(JSON.stringify(client.calls[1]?.messages.at(-1))).toContain("Bearer [redacted]");
  });
});

describe("ReactPlanner: tools that return plain values", () => {
  it("runs them like async tools: the same events, trajectory and answer", async () => {
    const runWith = async (asPromise: boolean) => {
      const lookup = defineTool({
        name: "lookup",
        desc: "Looks a code up",
        args: z.object({ code: z.string() }),
        out: z.object({ code: z.string(), valid: z.boolean() }),
        run: ({ code }) => {
          if (code === "boom") throw new Error("no such code");
          const result = { code, valid: code.startsWith("A") };
          return asPromise ? Promise.resolve(result) : result;
        },
      });
      const planner = new ReactPlanner({
        llm: new ScriptedClient([
          call("lookup", { code: "A1" }),
          call("lookup", { code: "boom" }),
          call("lookup", { code: 7 }),
          answer("A1 is valid."),
        ]),
        catalog: buildCatalog({ tools: [lookup] }),
        options: { toolRetry: { maxAttempts: 1, backoffMs: 0, maxBackoffMs: 0 } },
        clock: () => 0,
        createId: () => "run-1",
      });
      const log = createEventLog();
      const result = finished(await planner.run("Check A1", { onEvent: log.onEvent }));
      return { events: log.events, result };
    };
    const plain = await runWith(false);
    const promised = await runWith(true);
    expect(plain.result.reason).toBe("answer_complete");
    expect(plain.events.filter((event) => event.type === "tool_end")).toHaveLength(1);
    expect(plain.events.filter((event) => event.type === "tool_error")).toHaveLength(1);
    expect(plain).toStrictEqual(promised);
  });
});

describe("ReactPlanner: event times", () => {
  it("stamps a tool's events with the readings its timing uses, so that they agree", async () => {
    let now = 0;
    const echo = defineTool({
      name: "echo",
      desc: "Echoes",
      args: z.object({ text: z.string() }),
      out: z.object({ text: z.string() }),
      run: ({ text }) => ({ text }),
    });
    const planner = new ReactPlanner({
      llm: new ScriptedClient([call("echo", { text: "hi" }), answer("hi")]),
      catalog: buildCatalog({ tools: [echo] }),
      // Every reading is 10 ms after the previous one: shared readings show as equal times.
      clock: () => (now += 10),
    });
    const log = createEventLog();
    const result = finished(await planner.run("Echo hi", { onEvent: log.onEvent }));
    const [act, obs] = log.ofType("reasoning");
    const [start] = log.ofType("tool_start");
    const [end] = log.ofType("tool_end");
    expect(act?.ts).toBe(start?.ts);
    expect(obs?.ts).toBe(end?.ts);
    expect((end?.ts ?? 0) - (start?.ts ?? 0)).toBe(end?.data.durationMs);
    expect(end?.data.durationMs).toBeGreaterThan(0);
    expect(result.metadata.steps).toBe(1);
    const seqs = log.events.map((event) => event.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
  });
});

function flakySpecParsed(failFirst: number, retry?: ToolSpecInput["retry"]): ToolSpec {
  return ToolSpec.parse(flakySpec(failFirst, retry));
}
