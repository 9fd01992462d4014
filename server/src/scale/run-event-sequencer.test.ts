import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it, vi } from "vitest";
import { createLogger } from "../shared/logger.js";
import { RunEventHub } from "../runs/run-event-hub.js";
import { MemoryStore } from "../store/memory-store.js";
import { RunEventSequencer } from "./run-event-sequencer.js";

const event = (seq: number, type: "step_start" | "run_failed" = "step_start"): RunEvent =>
  type === "run_failed"
    ? { runId: "run-1", seq, ts: seq, step: 0, type, data: { error: { code: "x", message: "y" } } }
    : { runId: "run-1", seq, ts: seq, step: 0, type, data: { source: "llm" } };

async function setup(stored: number, watched: string[] = []) {
  const store = new MemoryStore();
  await store.createRun({ id: "run-1", agentId: "a", agentVersion: 1, query: "q", status: "running" });
  for (let seq = 1; seq <= stored; seq += 1) await store.appendEvent(event(seq));
  const hub = new RunEventHub();
  const published: number[] = [];
  hub.onEvent((heard) => published.push(heard.seq));
  const statuses: string[] = [];
  hub.onStatus((message) => statuses.push(message.status));
  const sequencer = new RunEventSequencer({
    store,
    hub,
    logger: createLogger({ level: "silent" }),
    getWatchedRunIds: () => watched,
    pollMs: 20,
  });
  return { store, hub, sequencer, published, statuses };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

describe("RunEventSequencer", () => {
  it("publishes in seq order, reads a gap from the store, and drops repeats", async () => {
    const { sequencer, published } = await setup(6);
    sequencer.noteDelivered("run-1", 1);
    sequencer.accept(event(2));
    sequencer.accept(event(5));
    sequencer.accept(event(2));
    await settle();
    sequencer.accept(event(6));
    sequencer.accept(event(4));
    // until the store's read has filled the gap (a fixed pause can be outlasted on a loaded machine)
    await vi.waitFor(() => expect(published).toHaveLength(5), { timeout: 10_000 });
    expect(published).toEqual([2, 3, 4, 5, 6]);
  });

  it("starts a run it never heard of at its first event, or where a follower's replay ended", async () => {
    const { sequencer, published } = await setup(9);
    sequencer.accept(event(4));
    sequencer.noteDelivered("other", 3);
    expect(published).toEqual([4]);
  });

  it("finds a watched run's lost last event and status by polling the store", async () => {
    const { store, sequencer, published, statuses } = await setup(3, ["run-1"]);
    sequencer.noteDelivered("run-1", 3);
    sequencer.start();
    await settle();
    await store.appendEvent(event(4, "run_failed"), { run: { status: "failed" } });
    // until a poll has found them, however late the timer fires
    await vi.waitFor(() => expect(statuses).toContain("failed"), { timeout: 10_000 });
    await vi.waitFor(() => expect(published).toHaveLength(1), { timeout: 10_000 });
    sequencer.stop();
    expect(published).toEqual([4]);
    expect(statuses).toContain("failed");
  });
});
