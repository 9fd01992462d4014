import { SubscribeAck, type RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { FakeSocketServer } from "../testing/fake-socket-server.js";
import { makeEvents, settle } from "../testing/run-transport-conformance.js";
import type { SeqHandlers } from "./seq-channel.js";
import { createSeqSubscriptions } from "./seq-subscriptions.js";
import type { TransportError } from "./transport-error.js";

/** Run streams over the fake server, with nothing but the layer: the transport's message handling is left out. */
async function setup() {
  const server = new FakeSocketServer();
  const connection = server.createConnection();
  const streams = createSeqSubscriptions<RunEvent, SeqHandlers<RunEvent>>(connection, {
    subscribe: {
      name: "subscribe",
      getPayload: (runId, afterSeq) => ({ runId, afterSeq }),
      ack: SubscribeAck,
    },
    unsubscribe: { name: "unsubscribe", getPayload: (runId) => ({ runId }) },
    readAfter: (runId, afterSeq) => server.api.getRunEvents(runId, afterSeq),
    getStreamId: (event) => event.runId,
    resubscribeOnFailure: true,
  });
  // the layer is told what the server sends (the run transport does this with its schemas)
  connection.on("event", (raw) => streams.receive((raw as RunEvent).runId, [raw as RunEvent]));
  await settle();
  return { server, connection, streams };
}

function listen() {
  const seqs: number[] = [];
  const errors: TransportError[] = [];
  const handlers: SeqHandlers<RunEvent> = {
    onEvents: (events) => seqs.push(...events.map((event) => event.seq)),
    onError: (error) => errors.push(error),
  };
  return { seqs, errors, handlers };
}

const subscribes = (server: FakeSocketServer) =>
  server.received.filter((message) => message.name === "subscribe").map((message) => message.payload);

describe("createSeqSubscriptions", () => {
  it("subscribes each stream once, and again from its last seq on every reconnection", async () => {
    const { server, streams } = await setup();
    server.publish([...makeEvents("run-1", 3), ...makeEvents("run-2", 1)]);
    const one = listen();
    const two = listen();
    streams.subscribe("run-1", 0, one.handlers);
    streams.subscribe("run-2", 0, two.handlers);
    await settle();
    server.dropConnection();
    server.restoreConnection();
    server.dropConnection();
    server.publish(makeEvents("run-1", 1, 4));
    server.restoreConnection();
    await settle();
    expect(subscribes(server)).toEqual([
      { runId: "run-1", afterSeq: 0 },
      { runId: "run-2", afterSeq: 0 },
      { runId: "run-1", afterSeq: 3 },
      { runId: "run-2", afterSeq: 1 },
      { runId: "run-1", afterSeq: 3 },
      { runId: "run-2", afterSeq: 1 },
    ]);
    expect(one.seqs).toEqual([1, 2, 3, 4]);
    expect(two.seqs).toEqual([1]);
  });

  it("catches a later listener up from the store, then hands it what came meanwhile", async () => {
    const { server, streams } = await setup();
    server.publish(makeEvents("run-1", 4));
    streams.subscribe("run-1", 0, listen().handlers);
    await settle();
    const later = listen();
    streams.subscribe("run-1", 1, later.handlers);
    server.publish(makeEvents("run-1", 1, 5));
    await settle();
    expect(later.seqs).toEqual([2, 3, 4, 5]);
    expect(server.restCalls).toEqual(["run-1:1"]);
  });

  it("reports a refused or malformed acknowledgement, but not one replaced by a newer subscribe", async () => {
    const { server, connection, streams } = await setup();
    const refused = listen();
    streams.subscribe("run-404", 0, refused.handlers);
    await settle();
    expect(refused.errors.map((error) => error.code)).toEqual(["not_found"]);

    // a server whose acks are malformed, then one that says a newer subscribe replaced this one
    const answers: unknown[] = [
      { ok: "yes" },
      { ok: false, error: { code: "conflict", message: "replaced" } },
    ];
    server.handle = (_name, _payload, ack) => ack?.(answers.shift());
    const other = listen();
    streams.subscribe("run-9", 0, other.handlers);
    streams.subscribe("run-10", 0, listen().handlers);
    expect(other.errors).toEqual([
      {
        code: "invalid_message",
        message: "The server sent a subscribe acknowledgement of an unexpected shape; it was ignored.",
      },
    ]);
    expect(connection.isConnected()).toBe(true);
  });

  it("tells a stream's listeners of an invalid message, and hands out their handlers", async () => {
    const { streams } = await setup();
    const one = listen();
    streams.subscribe("run-1", 0, one.handlers);
    streams.reportInvalid("run-1", "event 3");
    streams.reportInvalid("run-2", "event 1");
    expect(one.errors.map((error) => error.message)).toEqual([
      "The server sent a event 3 of an unexpected shape; it was ignored.",
    ]);
    expect(streams.getHandlers("run-1")).toEqual([one.handlers]);
    expect(streams.getHandlers("run-2")).toEqual([]);
  });

  it("unsubscribes every stream on close, and subscribes none again on reconnect", async () => {
    const { server, streams } = await setup();
    server.publish([...makeEvents("run-1", 1), ...makeEvents("run-2", 1)]);
    streams.subscribe("run-1", 0, listen().handlers);
    streams.subscribe("run-2", 0, listen().handlers);
    await settle();
    streams.close();
    server.dropConnection();
    server.restoreConnection();
    await settle();
    expect(server.received.filter((message) => message.name === "unsubscribe")).toHaveLength(2);
    expect(subscribes(server)).toHaveLength(2);
    expect(streams.isFollowed("run-1")).toBe(false);
  });
});
