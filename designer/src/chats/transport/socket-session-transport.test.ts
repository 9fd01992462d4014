import type { SessionEvent, SessionSummary } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import type { SocketLike } from "../../runs/transport/socket-run-transport.js";
import { makeTaskSessionLog } from "../../testing/make-session-events.js";
import { createSocketSessionTransport } from "./socket-session-transport.js";

type Listener = (...args: never[]) => void;

/**
 * The server side of `subscribe_session` in memory: the replay after `afterSeq` as `session_event`s, then
 * the ack with the log's last seq (as server/src/http/session-followers.ts does). Tests send raw messages
 * (duplicates, gaps, malformed ones) and cut the connection.
 */
class FakeSessionSocket implements SocketLike {
  connected = false;
  connects = 0;
  readonly sent: { name: string; payload: unknown }[] = [];
  readonly log: SessionEvent[];
  private readonly listeners = new Map<string, Listener[]>();
  readonly io = { on: () => undefined };

  constructor(log: SessionEvent[]) {
    this.log = log;
  }

  on(event: string, listener: Listener): unknown {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  emit(name: string, payload: unknown, ack?: (answer: unknown) => void): unknown {
    this.sent.push({ name, payload });
    if (name === "subscribe_session") {
      const { afterSeq } = payload as { afterSeq: number };
      for (const event of this.log) if (event.seq > afterSeq) this.send("session_event", event);
      ack?.({ ok: true, status: "idle", lastSeq: this.log.at(-1)?.seq ?? 0 });
    } else ack?.({ ok: true });
    return this;
  }

  connect(): unknown {
    this.connects += 1;
    this.connected = true;
    this.send("connect");
    return this;
  }

  disconnect(): unknown {
    this.connected = false;
    this.send("disconnect");
    return this;
  }

  send(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? [])
      (listener as (...values: unknown[]) => void)(...args);
  }
}

function setup(log = makeTaskSessionLog("ses_test1")) {
  const socket = new FakeSessionSocket(log);
  const restCalls: string[] = [];
  const transport = createSocketSessionTransport({
    api: {
      getSessionEvents: async (sessionId, after = 0) => {
        restCalls.push(`${sessionId}:${after}`);
        return log.filter((event) => event.sessionId === sessionId && event.seq > after);
      },
    },
    getToken: () => null,
    createSocket: () => socket,
  });
  const received: number[] = [];
  const errors: string[] = [];
  const follow = (afterSeq = 0) =>
    transport.subscribeSession("ses_test1", afterSeq, {
      onEvents: (events) => received.push(...events.map((event) => event.seq)),
      onError: (error) => errors.push(error.code),
    });
  return { socket, transport, restCalls, received, errors, follow, log };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("socket session transport", () => {
  it("connects only once a session is followed, replays its log once and drops duplicates", () => {
    const { socket, follow, received, log } = setup();
    expect(socket.connects).toBe(0);
    follow(3);
    expect(socket.connects).toBe(1);
    expect(received).toEqual(log.filter((event) => event.seq > 3).map((event) => event.seq));
    socket.send("session_event", log[4]);
    expect(received.filter((seq) => seq === 5)).toHaveLength(1);
  });

  it("fills a gap from the stored log, in order, and subscribes again from its last seq on reconnect", async () => {
    const { socket, follow, received, restCalls, log } = setup();
    const live = log.splice(8);
    follow();
    expect(received).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // event 10 arrives before 9 (9 went missing): 10 waits while 9 is read from the store
    log.push(...live);
    socket.send("session_event", live[1]);
    expect(received.at(-1)).toBe(8);
    await settle();
    expect(restCalls).toEqual(["ses_test1:8"]);
    expect(received).toEqual(log.map((event) => event.seq));

    socket.disconnect();
    socket.connect();
    expect(socket.sent.filter((message) => message.name === "subscribe_session").at(-1)?.payload).toEqual({
      sessionId: "ses_test1",
      afterSeq: log.length,
    });
    expect(received).toEqual(log.map((event) => event.seq));
  });

  it("reports a malformed event and an event of a session it does not follow changes nothing", async () => {
    const { socket, follow, received, errors, log } = setup();
    const last = log.pop()!;
    follow();
    socket.send("session_event", { sessionId: "ses_test1", seq: last.seq, type: "turn_started", data: {} });
    socket.send("session_event", { ...last, sessionId: "ses_other" });
    expect(errors).toEqual(["invalid_message"]);
    expect(received.at(-1)).toBe(last.seq - 1);
    log.push(last);
    socket.send("session_event", last);
    expect(received.at(-1)).toBe(last.seq);
  });

  it("stops following on unsubscribe, and hears the watched agent's sessions only", () => {
    const { socket, transport, follow } = setup();
    const stop = follow();
    stop();
    expect(socket.sent.at(-1)).toEqual({ name: "unsubscribe_session", payload: { sessionId: "ses_test1" } });

    const heard: string[] = [];
    const unwatch = transport.watchSessions("research-agent", (session) => heard.push(session.id));
    expect(socket.sent.at(-1)).toEqual({ name: "watch_agent", payload: { agentId: "research-agent" } });
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
    socket.send("session_updated", summary);
    socket.send("session_updated", { ...summary, id: "ses_x", agentId: "other-agent" });
    socket.send("session_updated", { id: "ses_bad" });
    expect(heard).toEqual(["ses_test1"]);
    unwatch();
    expect(socket.sent.at(-1)).toEqual({ name: "unwatch_agent", payload: { agentId: "research-agent" } });
  });
});
