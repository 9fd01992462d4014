import { describe, expect, it } from "vitest";
import {
  describeRunTransportConformance,
  makeEvents,
  settle,
} from "../../testing/run-transport-conformance.js";
import { makeRunRecord } from "../../testing/fake-run-api.js";
import { FakeRunTransport } from "./fake-run-transport.js";

describeRunTransportConformance("FakeRunTransport", () => {
  const transport = new FakeRunTransport();
  return {
    transport,
    publish: (events) => transport.pushEvents(events),
    publishStatus: (message) => transport.pushStatus(message),
    publishRun: (run) => transport.pushRunUpdated(run),
    dropConnection: () => transport.disconnect(),
    restoreConnection: () => transport.reconnect(),
  };
});

describe("FakeRunTransport", () => {
  it("records subscriptions and watched agents for tests to check", async () => {
    const transport = new FakeRunTransport();
    const handlers = { onEvents: () => undefined, onStatus: () => undefined, onError: () => undefined };
    const stop = transport.subscribe("run-1", 3, handlers);
    transport.watchAgent("agent-a", () => undefined);
    expect(transport.subscribeCalls).toEqual([{ runId: "run-1", afterSeq: 3 }]);
    expect(transport.getSubscriptions()).toEqual([{ runId: "run-1", lastSeq: 3 }]);
    expect(transport.getWatchedAgents()).toEqual(["agent-a"]);
    stop();
    expect(transport.getSubscriptions()).toEqual([]);
    transport.close();
    expect(transport.closed).toBe(true);
  });

  it("fails subscriptions on demand", async () => {
    const transport = new FakeRunTransport();
    transport.failSubscribe("run-1", { code: "not_found", message: "no run" });
    const errors: string[] = [];
    transport.subscribe("run-1", 0, {
      onEvents: () => undefined,
      onStatus: () => undefined,
      onError: (error) => errors.push(error.code),
    });
    await settle();
    expect(errors).toEqual(["not_found"]);
  });

  it("holds events after a stored gap until the gap is filled", async () => {
    const transport = new FakeRunTransport();
    const seqs: number[] = [];
    transport.subscribe("run-1", 0, {
      onEvents: (events) => seqs.push(...events.map((event) => event.seq)),
      onStatus: () => undefined,
      onError: () => undefined,
    });
    transport.pushEvents([...makeEvents("run-1", 2), ...makeEvents("run-1", 1, 4)]);
    await settle();
    expect(seqs).toEqual([1, 2]);
    transport.pushEvents(makeEvents("run-1", 1, 3));
    expect(seqs).toEqual([1, 2, 3, 4]);
    expect(transport.getEvents("run-1", 2).map((event) => event.seq)).toEqual([3, 4]);
  });

  it("delivers nothing while disconnected", () => {
    const transport = new FakeRunTransport({ connection: "disconnected" });
    const runs: string[] = [];
    transport.watchAgent("agent-a", (run) => runs.push(run.id));
    transport.pushRunUpdated(makeRunRecord({ agentId: "agent-a" }));
    expect(runs).toEqual([]);
  });
});
