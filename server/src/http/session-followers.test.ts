import type { SessionEvent, SessionSummary, SubscribeSessionAck } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

let server: TestServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.stop();
});

async function open(): Promise<Socket> {
  const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
  sockets.push(socket);
  await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
  return socket;
}

const subscribe = (socket: Socket, sessionId: string, afterSeq = 0) =>
  new Promise<SubscribeSessionAck>((resolve) =>
    socket.emit("subscribe_session", { sessionId, afterSeq }, resolve),
  );

async function until(check: () => boolean): Promise<void> {
  for (let tries = 0; !check() && tries < 500; tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("subscribe_session and session_updated", () => {
  it("replays the session's log, then streams each later event once, in order; watchers get session_updated", async () => {
    const { sessionId } = (
      await server.request("/api/sessions", { method: "POST", json: { agentId: "support-triage" } })
    ).body;
    const first = await server.request("/api/runs", {
      method: "POST",
      json: { sessionId, query: "A duplicate charge" },
    });
    for (let tries = 0; tries < 500; tries += 1) {
      if ((await server.request(`/api/sessions/${sessionId}`)).body.status === "idle") break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const watcher = await open();
    const updates: SessionSummary[] = [];
    watcher.on("session_updated", (summary: SessionSummary) => updates.push(summary));
    await new Promise((resolve) => watcher.emit("watch_agent", { agentId: "support-triage" }, resolve));

    const follower = await open();
    const events: SessionEvent[] = [];
    follower.on("session_event", (event: SessionEvent) => events.push(event));
    const ack = await subscribe(follower, sessionId);
    expect(ack).toEqual({ ok: true, status: "idle", lastSeq: 2 });
    expect(events.map((event) => [event.seq, event.type])).toEqual([
      [1, "turn_started"],
      [2, "turn_ended"],
    ]);
    expect(events[0]!.data).toMatchObject({ runId: first.body.runId, turn: 1 });

    await server.request("/api/runs", { method: "POST", json: { sessionId, query: "And the refund?" } });
    await until(() => events.length >= 4);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(events.at(-1)).toMatchObject({ type: "turn_ended", data: { turn: 2, status: "finished" } });
    await until(() => updates.some((update) => update.turnCount === 2 && update.status === "idle"));
    expect(updates.at(-1)).toMatchObject({ id: sessionId, turnCount: 2, lastQuery: "And the refund?" });

    // A follower that comes back from the last seq it has gets only what came after.
    const late = await open();
    const rest: SessionEvent[] = [];
    late.on("session_event", (event: SessionEvent) => rest.push(event));
    expect(await subscribe(late, sessionId, 3)).toMatchObject({ ok: true, lastSeq: 4 });
    expect(rest.map((event) => event.seq)).toEqual([4]);
  });

  it("refuses a malformed or unknown session", async () => {
    const socket = await open();
    expect(await subscribe(socket, "nope")).toMatchObject({
      ok: false,
      error: { code: "validation_failed" },
    });
    expect(await subscribe(socket, "ses_0000000000000000")).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
  });
});
