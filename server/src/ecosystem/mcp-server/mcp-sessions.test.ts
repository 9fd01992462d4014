import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { McpSessions, type McpSession } from "./mcp-sessions.js";

/** A session whose transport only records that it was closed. */
function createSession(closed: string[], id: string): Omit<McpSession, "lastSeen" | "calls"> {
  const transport = { close: async () => void closed.push(id) };
  return { transport, server: {} } as unknown as Omit<McpSession, "lastSeen" | "calls">;
}

/** A response that closes when told, finished or not. */
function createResponse(): ServerResponse & { closeNow(finished: boolean): void } {
  const response = new EventEmitter() as ServerResponse & { closeNow(finished: boolean): void };
  response.closeNow = (finished) => {
    Object.assign(response, { writableFinished: finished });
    response.emit("close");
  };
  return response;
}

describe("McpSessions", () => {
  it("closes sessions idle for longer than idleMs", () => {
    let now = 0;
    const closed: string[] = [];
    const sessions = new McpSessions({ idleMs: 1_000, clock: () => now });
    sessions.add("old", createSession(closed, "old"));
    now = 900;
    sessions.add("new", createSession(closed, "new"));
    now = 1_500;
    expect(sessions.makeRoom()).toBe(true);
    expect(closed).toEqual(["old"]);
    expect(sessions.get("new")).toBeDefined();
  });

  it("makes room by closing the least recently seen idle session, never a busy one", () => {
    let now = 0;
    const closed: string[] = [];
    const sessions = new McpSessions({ maxSessions: 2, clock: () => now });
    sessions.add("busy", createSession(closed, "busy"));
    sessions.trackCalls("busy", [1], createResponse());
    now = 1;
    sessions.add("idle", createSession(closed, "idle"));
    expect(sessions.makeRoom()).toBe(true);
    expect(closed).toEqual(["idle"]);
    now = 2;
    sessions.add("busy-too", createSession(closed, "busy-too"));
    sessions.trackCalls("busy-too", ["a"], createResponse());
    expect(sessions.makeRoom()).toBe(false);
    expect(sessions.size).toBe(2);
  });

  it("aborts a call's signal when its request closes before its response is complete", () => {
    const sessions = new McpSessions();
    sessions.add("s", createSession([], "s"));
    const gone = createResponse();
    const done = createResponse();
    sessions.trackCalls("s", [1], gone);
    sessions.trackCalls("s", [2], done);
    const goneSignal = sessions.getCallSignal("s", 1)!;
    const doneSignal = sessions.getCallSignal("s", 2)!;
    done.closeNow(true);
    gone.closeNow(false);
    expect(goneSignal.aborted).toBe(true);
    expect(doneSignal.aborted).toBe(false);
    expect(sessions.getCallSignal("s", 1)).toBeUndefined();
  });
});
