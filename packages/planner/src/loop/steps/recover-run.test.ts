import { AgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { InMemoryStateStore } from "../../pause/in-memory-state-store.js";
import { answer, call, createEventLog, createScriptedPlanner } from "../../testing/run-harness.js";
import type { RunCheckpoint } from "../../run/run-checkpoint.js";

const spec = AgentSpec.parse({
  version: 1,
  id: "billing",
  name: "Billing",
  tools: [
    { name: "fetch_invoice", sideEffects: "read", impl: { kind: "mock", output: { amount: 12 } } },
    { name: "refund", sideEffects: "external", impl: { kind: "mock", output: { refunded: true } } },
  ],
});
const script = [call("fetch_invoice", { id: "inv-1" }), call("refund", { id: "inv-1" }), answer("Refunded.")];

/** A whole run that keeps every checkpoint as JSON text, as a database would. */
async function runWithCheckpoints() {
  const stateStore = new InMemoryStateStore();
  const { planner } = createScriptedPlanner(spec, script, { stateStore });
  const log = createEventLog();
  const checkpoints: string[] = [];
  const outcome = await planner.run("refund invoice 1", {
    runId: "run-1",
    onEvent: log.onEvent,
    onCheckpoint: (checkpoint) => {
      checkpoints.push(JSON.stringify(checkpoint));
    },
  });
  return { outcome, log, checkpoints: checkpoints.map((text) => JSON.parse(text) as RunCheckpoint) };
}

describe("ReactPlanner.recover", () => {
  it("checkpoints after every completed step and in front of every call, naming its side effects", async () => {
    const { outcome, checkpoints } = await runWithCheckpoints();
    expect(outcome.kind).toBe("finish");
    expect(
      checkpoints.map((checkpoint) => [checkpoint.state.steps.length, checkpoint.inFlight?.tool ?? null]),
    ).toEqual([
      [0, null],
      [0, "fetch_invoice"],
      [1, null],
      [1, "refund"],
      [2, null],
    ]);
    expect(checkpoints[3]?.inFlight).toMatchObject({ sideEffects: "external", source: "llm" });
  });

  it("starts a call with side effects only once the host holds its checkpoint; a read call never waits", async () => {
    const { planner } = createScriptedPlanner(spec, script);
    const order: string[] = [];
    const outcome = await planner.run("refund invoice 1", {
      runId: "run-1",
      onEvent: (event) => {
        if (event.type === "tool_start") order.push(`start ${String(event.data.tool)}`);
      },
      onCheckpoint: (checkpoint) => {
        const tool = checkpoint.inFlight?.tool;
        if (tool === undefined) return undefined;
        order.push(`checkpoint ${tool}`);
        // A slow database: the write lands a few turns of the event loop later.
        return new Promise<void>((resolve) =>
          setTimeout(() => {
            order.push(`stored ${tool}`);
            resolve();
          }, 5),
        );
      },
    });
    expect(outcome.kind).toBe("finish");
    // The read starts at once, before its checkpoint is stored; the refund waits for its own.
    expect(order.indexOf("start fetch_invoice")).toBe(order.indexOf("checkpoint fetch_invoice") + 1);
    expect(order.indexOf("start fetch_invoice")).toBeLessThan(order.indexOf("stored fetch_invoice"));
    expect(order.filter((entry) => entry.endsWith("refund"))).toEqual([
      "checkpoint refund",
      "stored refund",
      "start refund",
    ]);
  });

  it("goes on with the call when the host fails to store its checkpoint", async () => {
    const { planner } = createScriptedPlanner(spec, script);
    const outcome = await planner.run("refund invoice 1", {
      runId: "run-1",
      onCheckpoint: () => Promise.reject(new Error("database down")),
    });
    expect(outcome.kind).toBe("finish");
  });

  it("re-runs a read call that was in flight, without asking the LLM again for it", async () => {
    const { checkpoints, log: first } = await runWithCheckpoints();
    const checkpoint = checkpoints[1]!;
    const storedSeq = first.events.find((event) => event.type === "tool_start")!.seq;
    const { planner, client } = createScriptedPlanner(spec, script.slice(1));
    const log = createEventLog();
    const outcome = await planner.recover(checkpoint, { onEvent: log.onEvent, lastSeq: storedSeq });
    expect(outcome.kind).toBe("finish");
    expect(client.calls).toHaveLength(2);
    expect(log.events[0]).toMatchObject({
      seq: storedSeq + 1,
      type: "run_recovered",
      data: { interrupted: { tool: "fetch_invoice", sideEffects: "read" }, rerun: true },
    });
    expect(log.events.map((event) => event.seq)).toEqual(log.events.map((_, index) => storedSeq + 1 + index));
    expect(log.ofType("tool_end").map((event) => event.data.tool)).toEqual(["fetch_invoice", "refund"]);
  });

  it("pauses an interrupted external call for a person, and runs it once on approval", async () => {
    const { checkpoints } = await runWithCheckpoints();
    const stateStore = new InMemoryStateStore();
    const { planner, client } = createScriptedPlanner(spec, script.slice(2), { stateStore });
    const log = createEventLog();
    const paused = await planner.recover(checkpoints[3]!, { onEvent: log.onEvent });
    expect(paused).toMatchObject({
      kind: "pause",
      reason: "approval_required",
      payload: { tool: "refund", interrupted: true, sideEffects: "external", args: { id: "inv-1" } },
    });
    expect(log.ofType("tool_start")).toEqual([]);
    expect(client.calls).toHaveLength(0);
    if (paused.kind !== "pause") return;
    const finished = await planner.resume(paused.resumeToken, { decision: "approve", onEvent: log.onEvent });
    expect(finished).toMatchObject({ kind: "finish", reason: "answer_complete" });
    expect(log.ofType("tool_end").map((event) => event.data.tool)).toEqual(["refund"]);
    expect(finished.metadata?.steps).toBe(2);
  });

  it("continues from a completed step with no call in flight, and refuses what is not a checkpoint", async () => {
    const { checkpoints } = await runWithCheckpoints();
    const { planner, client } = createScriptedPlanner(spec, script.slice(1));
    const log = createEventLog();
    const outcome = await planner.recover(checkpoints[2]!, { onEvent: log.onEvent });
    expect(outcome.kind).toBe("finish");
    expect(client.calls).toHaveLength(2);
    expect(log.ofType("run_recovered")[0]?.data).not.toHaveProperty("interrupted");
    expect(log.ofType("tool_end").map((event) => event.data.tool)).toEqual(["refund"]);
    await expect(planner.recover({ format: "other" })).rejects.toMatchObject({ code: "invalid_state" });
  });
});
