import type { SessionSummary } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { FakeSocketServer } from "../../testing/fake-socket-server.js";
import { makeTaskSessionLog } from "../../testing/make-session-events.js";
import { settle } from "../../testing/run-transport-conformance.js";
import { createSocketSessionTransport } from "./socket-session-transport.js";

function setup() {
  const log = makeTaskSessionLog("ses_test1");
  const server = new FakeSocketServer();
  const connection = server.createConnection();
  const transport = createSocketSessionTransport({ connection, api: server.api });
  const received: number[] = [];
  const errors: string[] = [];
  const follow = (afterSeq = 0) =>
    transport.subscribeSession("ses_test1", afterSeq, {
      onEvents: (events) => received.push(...events.map((event) => event.seq)),
      onError: (error) => errors.push(error.code),
    });
  return { server, connection, transport, received, errors, follow, log };
}

const summary: SessionSummary = {
  id: "ses_test1",
  agentId: "research-agent",
  agentVersion: 1,
  title: "Research",
  status: "idle",
  usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
  createdAt: "2026-01-05T09:00:00Z",
  updatedAt: "2026-01-05T09:00:00Z",
  turnCount: 1,
  lastQuery: "Research the market",
};

describe("socket session transport", () => {
  it("replays the log after afterSeq once, then live events, and drops duplicates", async () => {
    const { server, follow, received, log } = setup();
    server.publishSessionEvents(log.slice(0, 8));
    follow(3);
    await settle();
    expect(received).toEqual([4, 5, 6, 7, 8]);
    server.send("session_event", log[4]);
    server.publishSessionEvents(log.slice(8, 9));
    await settle();
    expect(received).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it("fills a gap from the stored log, in order, and subscribes again from its last seq on reconnect", async () => {
    const { server, follow, received, log } = setup();
    server.publishSessionEvents(log.slice(0, 8));
    follow();
    await settle();
    expect(received).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // 9 is stored but never reaches this socket; 10 arrives and waits while 9 is read from the store
    server.sessionLogs.get("ses_test1")!.push(log[8]!);
    server.publishSessionEvents(log.slice(9));
    await settle();
    expect(server.restCalls).toEqual(["ses_test1:8"]);
    expect(received).toEqual(log.map((event) => event.seq));

    server.dropConnection();
    server.restoreConnection();
    await settle();
    const subscribes = server.received.filter((message) => message.name === "subscribe_session");
    expect(subscribes.at(-1)?.payload).toEqual({ sessionId: "ses_test1", afterSeq: log.length });
    expect(received).toEqual(log.map((event) => event.seq));
  });

  it("reports a malformed event and a session the server does not know; another session's event changes nothing", async () => {
    const { server, transport, follow, received, errors, log } = setup();
    server.publishSessionEvents(log.slice(0, -1));
    follow();
    await settle();
    const last = log.at(-1)!;
    server.send("session_event", { sessionId: "ses_test1", seq: last.seq, type: "turn_started", data: {} });
    server.send("session_event", { ...last, sessionId: "ses_other" });
    expect(errors).toEqual(["invalid_message"]);
    expect(received.at(-1)).toBe(last.seq - 1);
    server.publishSessionEvents([last]);
    expect(received.at(-1)).toBe(last.seq);

    transport.subscribeSession("ses_missing", 0, {
      onEvents: () => undefined,
      onError: (error) => errors.push(error.code),
    });
    await settle();
    expect(errors).toEqual(["invalid_message", "not_found"]);
  });

  it("stops following on unsubscribe, and hears the watched agent's sessions only", async () => {
    const { server, transport, follow } = setup();
    server.publishSessionEvents(makeTaskSessionLog("ses_test1").slice(0, 1));
    const stop = follow();
    await settle();
    stop();
    expect(server.received.at(-1)).toEqual({
      name: "unsubscribe_session",
      payload: { sessionId: "ses_test1" },
    });

    const heard: string[] = [];
    const unwatch = transport.watchSessions("research-agent", (session) => heard.push(session.id));
    expect(server.received.at(-1)).toEqual({ name: "watch_agent", payload: { agentId: "research-agent" } });
    server.publishSession(summary);
    server.send("session_updated", { ...summary, id: "ses_x", agentId: "other-agent" });
    server.send("session_updated", { id: "ses_bad" });
    expect(heard).toEqual(["ses_test1"]);
    unwatch();
    expect(server.received.at(-1)).toEqual({ name: "unwatch_agent", payload: { agentId: "research-agent" } });
  });
});
