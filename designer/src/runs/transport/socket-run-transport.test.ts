import { describe, expect, it } from "vitest";
import { FakeSocketServer } from "../../testing/fake-socket-server.js";
import {
  describeRunTransportConformance,
  makeEvents,
  settle,
} from "../../testing/run-transport-conformance.js";
import { makeRunRecord } from "../../testing/fake-run-api.js";
import type { TransportError } from "../../socket/transport-error.js";
import { createSocketRunTransport } from "./socket-run-transport.js";

function setup(options: { batch?: boolean } = {}) {
  const server = new FakeSocketServer();
  const connection = server.createConnection();
  const transport = createSocketRunTransport({ connection, api: server.api, ...options });
  return { server, connection, transport };
}

function follow(transport: ReturnType<typeof setup>["transport"], runId = "run-1", afterSeq = 0) {
  const seqs: number[] = [];
  const errors: TransportError[] = [];
  const stop = transport.subscribe(runId, afterSeq, {
    onEvents: (events) => seqs.push(...events.map((event) => event.seq)),
    onStatus: () => undefined,
    onError: (error) => errors.push(error),
  });
  return { seqs, errors, stop };
}

describeRunTransportConformance("createSocketRunTransport", () => {
  const { server, transport } = setup();
  return {
    transport,
    publish: (events) => server.publish(events),
    publishStatus: (message) => server.publishStatus(message),
    publishRun: (run) => server.publishRun(run),
    dropConnection: () => server.dropConnection(),
    restoreConnection: () => server.restoreConnection(),
  };
});

describeRunTransportConformance("createSocketRunTransport with run_events batches", () => {
  const { server, transport } = setup({ batch: true });
  return {
    transport,
    publish: (events) => server.publish(events),
    publishStatus: (message) => server.publishStatus(message),
    publishRun: (run) => server.publishRun(run),
    dropConnection: () => server.dropConnection(),
    restoreConnection: () => server.restoreConnection(),
  };
});

describe("createSocketRunTransport with run_events batches", () => {
  /** A listener that keeps each delivery apart, as the run store folds each in one update. */
  function followDeliveries(transport: ReturnType<typeof setup>["transport"], afterSeq = 0) {
    const deliveries: number[][] = [];
    const errors: TransportError[] = [];
    transport.subscribe("run-1", afterSeq, {
      onEvents: (events) => deliveries.push(events.map((event) => event.seq)),
      onStatus: () => undefined,
      onError: (error) => errors.push(error),
    });
    return { deliveries, errors };
  }

  it("asks for batches, and hands the replay and each batch on in one delivery", async () => {
    const { server, transport } = setup({ batch: true });
    server.publish(makeEvents("run-1", 3));
    const follower = followDeliveries(transport);
    await settle();
    server.publish(makeEvents("run-1", 4, 4));
    server.publish(makeEvents("run-1", 1, 8));
    await settle();
    expect(server.received.find((message) => message.name === "subscribe")?.payload).toEqual({
      runId: "run-1",
      afterSeq: 0,
      batch: true,
    });
    expect(follower.deliveries).toEqual([[1, 2, 3], [4, 5, 6, 7], [8]]);
  });

  it("drops what it already has from a batch, and fills a gap inside one from the store", async () => {
    const { server, transport } = setup({ batch: true });
    server.publish(makeEvents("run-1", 2));
    const follower = followDeliveries(transport);
    await settle();
    const [first, second] = server.logs.get("run-1")!;
    const later = makeEvents("run-1", 3, 3);
    server.logs.get("run-1")!.push(...later);
    // 1 and 2 again, then 3 and 5 with 4 missing from the message
    server.send("run_events", [first, second, later[0], later[2]]);
    await settle();
    expect(follower.deliveries.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(server.restCalls).toEqual(["run-1:3"]);
  });

  it("reports a malformed batch, drops it whole, and recovers its events from the store", async () => {
    const { server, transport } = setup({ batch: true });
    server.publish(makeEvents("run-1", 1));
    const follower = followDeliveries(transport);
    await settle();
    const batch = makeEvents("run-1", 2, 2);
    server.logs.get("run-1")!.push(...batch);
    server.send("run_events", [batch[1], batch[0]]);
    server.send("run_events", [{ ...batch[0], type: "no_such_event" }]);
    server.publish(makeEvents("run-1", 1, 4));
    await settle();
    expect(follower.errors.map((error) => error.code)).toEqual(["invalid_message", "invalid_message"]);
    expect(follower.deliveries.flat()).toEqual([1, 2, 3, 4]);
  });
});

describe("createSocketRunTransport", () => {
  it("drops duplicates", async () => {
    const { server, transport } = setup();
    server.publish(makeEvents("run-1", 2));
    const follower = follow(transport);
    await settle();
    const [first, second] = server.logs.get("run-1")!;
    server.send("event", first);
    server.send("event", second);
    server.publish(makeEvents("run-1", 1, 3));
    server.send("event", server.logs.get("run-1")![2]);
    await settle();
    expect(follower.seqs).toEqual([1, 2, 3]);
  });

  it("fills a gap from the stored events, in order", async () => {
    const { server, transport } = setup();
    server.publish(makeEvents("run-1", 2));
    const follower = follow(transport);
    await settle();
    // 3 and 4 are stored, but only 5 reaches this socket
    const missing = makeEvents("run-1", 2, 3);
    server.logs.get("run-1")!.push(...missing);
    server.publish(makeEvents("run-1", 1, 5));
    await settle();
    expect(follower.seqs).toEqual([1, 2, 3, 4, 5]);
    expect(server.restCalls).toEqual(["run-1:2"]);
  });

  it("ignores malformed messages, reports them, and recovers the event from the store", async () => {
    const { server, transport } = setup();
    server.publish(makeEvents("run-1", 1));
    const follower = follow(transport);
    const runs: string[] = [];
    transport.watchAgent("agent-a", (run) => runs.push(run.id));
    await settle();
    const [good] = makeEvents("run-1", 1, 2);
    server.logs.get("run-1")!.push(good!);
    server.send("event", { ...good, type: "no_such_event" });
    server.send("run_status", { runId: "run-1", status: "bogus", lastSeq: 1 });
    server.send("run_updated", { id: "run-9", agentId: "agent-a" });
    server.publish(makeEvents("run-1", 1, 3));
    await settle();
    expect(follower.errors.map((error) => error.code)).toEqual(["invalid_message"]);
    expect(follower.seqs).toEqual([1, 2, 3]);
    expect(runs).toEqual([]);
  });

  it("fills up to the seq a status tells when events are missing", async () => {
    const { server, transport } = setup();
    server.publish(makeEvents("run-1", 1));
    const follower = follow(transport);
    await settle();
    server.logs.get("run-1")!.push(...makeEvents("run-1", 2, 2));
    server.publishStatus({ runId: "run-1", status: "finished", lastSeq: 3 });
    await settle();
    expect(follower.seqs).toEqual([1, 2, 3]);
  });

  it("subscribes again from the last seq after a reconnect, and watches its agents again", async () => {
    const { server, transport } = setup();
    server.publish(makeEvents("run-1", 4));
    follow(transport);
    transport.watchAgent("agent-a", () => undefined);
    await settle();
    server.dropConnection();
    server.restoreConnection();
    await settle();
    const subscribes = server.received.filter((message) => message.name === "subscribe");
    expect(subscribes.map((message) => message.payload)).toEqual([
      { runId: "run-1", afterSeq: 0 },
      { runId: "run-1", afterSeq: 4 },
    ]);
    expect(server.received.filter((message) => message.name === "watch_agent")).toHaveLength(2);
    const runs: string[] = [];
    transport.watchAgent("agent-a", (run) => runs.push(run.id));
    server.publishRun(makeRunRecord({ id: "run-7", agentId: "agent-a" }));
    expect(runs).toEqual(["run-7"]);
  });

  it("reports a run the server does not know", async () => {
    const { transport } = setup();
    const follower = follow(transport, "run-404");
    await settle();
    expect(follower.errors).toEqual([{ code: "not_found", message: 'Run "run-404" does not exist.' }]);
  });

  it("unsubscribes and unwatches on the server when the last listener leaves", async () => {
    const { server, transport } = setup();
    server.publish(makeEvents("run-1", 1));
    const one = follow(transport);
    const two = follow(transport);
    const unwatch = transport.watchAgent("agent-a", () => undefined);
    await settle();
    one.stop();
    expect(server.received.some((message) => message.name === "unsubscribe")).toBe(false);
    two.stop();
    unwatch();
    expect(
      server.received.filter((message) => message.name.startsWith("un")).map((message) => message.name),
    ).toEqual(["unsubscribe", "unwatch_agent"]);
    expect(server.received.filter((message) => message.name === "subscribe")).toHaveLength(1);
  });

  it("lets go of its runs and watches on close, and leaves the shared connection open", async () => {
    const { server, connection, transport } = setup();
    server.publish(makeEvents("run-1", 1));
    const follower = follow(transport);
    transport.watchAgent("agent-a", () => undefined);
    await settle();
    transport.close();
    expect(
      server.received.filter((message) => message.name.startsWith("un")).map((message) => message.name),
    ).toEqual(["unsubscribe", "unwatch_agent"]);
    server.publish(makeEvents("run-1", 1, 2));
    expect(follower.seqs).toEqual([1]);
    expect(connection.isConnected()).toBe(true);
  });
});
