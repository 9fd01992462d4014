import type { RunEvent, RunRecord, RunStatusMessage } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import type { RunTransport } from "../runs/transport/run-transport.js";
import type { ConnectionState } from "../socket/socket-connection.js";
import type { TransportError } from "../socket/transport-error.js";
import { makeRunRecord } from "./fake-run-api.js";
import { createEventFactory } from "./make-run-events.js";

/** One RunTransport with the server side it talks to, for the shared conformance cases. */
export interface RunTransportHarness {
  transport: RunTransport;
  /** Stores events of a run and sends them live, as the server does. */
  publish(events: readonly RunEvent[]): void;
  publishStatus(message: RunStatusMessage): void;
  publishRun(run: RunRecord): void;
  dropConnection(): void;
  restoreConnection(): void;
}

/** Lets microtasks and zero-delay timers run (deliveries from a network stand-in). */
export async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

export function makeEvents(runId: string, count: number, from = 1): RunEvent[] {
  const events = createEventFactory(runId, { seq: from, ts: 1_000 + from });
  return Array.from({ length: count }, (_, index) =>
    events.next("reasoning", { phase: "plan", summary: `event ${from + index}` }),
  );
}

function record(transport: RunTransport, runId: string, afterSeq = 0) {
  const seqs: number[] = [];
  const statuses: string[] = [];
  const errors: TransportError[] = [];
  const stop = transport.subscribe(runId, afterSeq, {
    onEvents: (events) => seqs.push(...events.map((event) => event.seq)),
    onStatus: (message) => statuses.push(message.status),
    onError: (error) => errors.push(error),
  });
  return { seqs, statuses, errors, stop };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** The behaviour every RunTransport shares (the socket one and the in-memory fake). */
export function describeRunTransportConformance(
  name: string,
  createHarness: () => RunTransportHarness,
): void {
  describe(`${name} (RunTransport conformance)`, () => {
    it("sends the stored events after afterSeq, then live ones, each once and in order", async () => {
      const harness = createHarness();
      harness.publish(makeEvents("run-1", 5));
      await settle();
      const follower = record(harness.transport, "run-1", 2);
      await settle();
      harness.publish(makeEvents("run-1", 3, 6));
      await settle();
      expect(follower.seqs).toEqual(range(3, 8));
      expect(follower.errors).toEqual([]);
    });

    it("tells the run's status", async () => {
      const harness = createHarness();
      harness.publish(makeEvents("run-1", 1));
      const follower = record(harness.transport, "run-1");
      await settle();
      harness.publishStatus({ runId: "run-1", status: "paused", lastSeq: 1 });
      await settle();
      expect(follower.statuses.at(-1)).toBe("paused");
    });

    it("loses and repeats nothing across a reconnect, and says so", async () => {
      const harness = createHarness();
      const states: ConnectionState[] = [];
      harness.transport.onConnection((state) => states.push(state));
      harness.publish(makeEvents("run-1", 2));
      const follower = record(harness.transport, "run-1");
      await settle();
      harness.dropConnection();
      harness.publish(makeEvents("run-1", 3, 3));
      await settle();
      expect(follower.seqs).toEqual([1, 2]);
      harness.restoreConnection();
      await settle();
      harness.publish(makeEvents("run-1", 1, 6));
      await settle();
      expect(follower.seqs).toEqual(range(1, 6));
      expect(states).toContain("disconnected");
      expect(states.at(-1)).toBe("connected");
    });

    it("stops after unsubscribe", async () => {
      const harness = createHarness();
      harness.publish(makeEvents("run-1", 1));
      const follower = record(harness.transport, "run-1");
      await settle();
      follower.stop();
      harness.publish(makeEvents("run-1", 2, 2));
      await settle();
      expect(follower.seqs).toEqual([1]);
    });

    it("gives a second follower of the same run everything from its own afterSeq", async () => {
      const harness = createHarness();
      harness.publish(makeEvents("run-1", 4));
      const first = record(harness.transport, "run-1");
      await settle();
      const second = record(harness.transport, "run-1", 1);
      harness.publish(makeEvents("run-1", 2, 5));
      await settle();
      harness.publish(makeEvents("run-1", 1, 7));
      await settle();
      expect(first.seqs).toEqual(range(1, 7));
      expect(second.seqs).toEqual(range(2, 7));
    });

    it("tells the runs of a watched agent, and only those, until unwatched", async () => {
      const harness = createHarness();
      const runs: string[] = [];
      const stop = harness.transport.watchAgent("agent-a", (run) => runs.push(`${run.id}:${run.status}`));
      await settle();
      harness.publishRun(makeRunRecord({ id: "run-1", agentId: "agent-a", status: "queued" }));
      harness.publishRun(makeRunRecord({ id: "run-2", agentId: "agent-b" }));
      harness.publishRun(makeRunRecord({ id: "run-1", agentId: "agent-a", status: "running" }));
      await settle();
      stop();
      await settle();
      harness.publishRun(makeRunRecord({ id: "run-1", agentId: "agent-a", status: "finished" }));
      await settle();
      expect(runs).toEqual(["run-1:queued", "run-1:running"]);
    });
  });
}
