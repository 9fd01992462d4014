import { describe, expect, it } from "vitest";
import { createSocketRunTransport } from "../runs/transport/socket-run-transport.js";
import { createSocketSessionTransport } from "../chats/transport/socket-session-transport.js";
import { FakeSocketServer } from "../testing/fake-socket-server.js";
import { makeRunRecord } from "../testing/fake-run-api.js";
import { makeTaskSessionLog } from "../testing/make-session-events.js";
import { makeEvents, settle } from "../testing/run-transport-conformance.js";
import type { ConnectionState } from "./socket-connection.js";

const UNAUTHORIZED = "unauthorized: pass the server's WADDLE_TOKEN as auth.token";

describe("createSocketConnection", () => {
  it("presents the stored token on every connection, read again each time", async () => {
    let token: string | null = "first";
    const server = new FakeSocketServer();
    server.createConnection({ getToken: () => token });
    await settle();
    server.dropConnection();
    token = "second";
    server.restoreConnection();
    expect(server.auths).toEqual([{ token: "first" }, { token: "second" }]);
  });

  it("asks for a token when the server refuses one, then connects again with it", async () => {
    let token: string | null = null;
    const server = new FakeSocketServer();
    server.refuseNext = UNAUTHORIZED;
    const states: ConnectionState[] = [];
    const connection = server.createConnection({
      getToken: () => token,
      onUnauthorized: async () => {
        token = "right";
        return true;
      },
    });
    connection.onConnection((state) => states.push(state));
    await settle();
    expect(server.auths).toEqual([{}, { token: "right" }]);
    expect(states).toEqual(["connecting", "disconnected", "connected"]);
  });

  it("stays disconnected when no new token is given, and asks for none on other errors", async () => {
    const server = new FakeSocketServer();
    server.refuseNext = UNAUTHORIZED;
    let asked = 0;
    const connection = server.createConnection({
      onUnauthorized: async () => {
        asked += 1;
        return false;
      },
    });
    await settle();
    expect(connection.isConnected()).toBe(false);
    server.refuseNext = "xhr poll error";
    server.restoreConnection();
    await settle();
    expect(asked).toBe(1);
    expect(server.auths).toHaveLength(2);
  });

  it("runs onConnect on every connection, sends nothing while disconnected, and stops listeners", async () => {
    const server = new FakeSocketServer();
    const connection = server.createConnection();
    let connects = 0;
    const heard: unknown[] = [];
    connection.onConnect(() => (connects += 1));
    const stop = connection.on("run_status", (raw) => heard.push(raw));
    await settle();
    server.send("run_status", { runId: "r" });
    server.dropConnection();
    connection.emit("unsubscribe", { runId: "r" });
    server.restoreConnection();
    stop();
    server.send("run_status", { runId: "s" });
    expect(connects).toBe(2);
    expect(server.received).toEqual([]);
    expect(heard).toEqual([{ runId: "r" }]);
  });

  it("closes the socket", async () => {
    const server = new FakeSocketServer();
    const connection = server.createConnection();
    await settle();
    connection.close();
    expect(server.socket?.connected).toBe(false);
  });
});

describe("runs and chat sessions over one connection", () => {
  function setup() {
    let token = "first";
    const server = new FakeSocketServer();
    const connection = server.createConnection({
      getToken: () => token,
      onUnauthorized: async () => {
        token = "second";
        return true;
      },
    });
    const runs = createSocketRunTransport({ connection, api: server.api });
    const sessions = createSocketSessionTransport({ connection, api: server.api });
    const runSeqs: number[] = [];
    const sessionSeqs: number[] = [];
    runs.subscribe("run-1", 0, {
      onEvents: (events) => runSeqs.push(...events.map((event) => event.seq)),
      onStatus: () => undefined,
      onError: () => undefined,
    });
    sessions.subscribeSession("ses_test1", 0, {
      onEvents: (events) => sessionSeqs.push(...events.map((event) => event.seq)),
      onError: () => undefined,
    });
    return { server, runs, sessions, runSeqs, sessionSeqs };
  }

  it("share one socket; a reconnect refused for its token asks for one, then resubscribes both from their last seq", async () => {
    const { server, runSeqs, sessionSeqs } = setup();
    const log = makeTaskSessionLog("ses_test1");
    server.publish(makeEvents("run-1", 3));
    server.publishSessionEvents(log.slice(0, 4));
    await settle();
    server.dropConnection();
    // what happened while away is replayed after the reconnect
    server.publish(makeEvents("run-1", 2, 4));
    server.publishSessionEvents(log.slice(4, 6));
    server.refuseNext = UNAUTHORIZED;
    server.restoreConnection();
    await settle();
    expect(server.auths).toEqual([{ token: "first" }, { token: "first" }, { token: "second" }]);
    const payloads = (name: string) =>
      server.received.filter((message) => message.name === name).map((message) => message.payload);
    expect(payloads("subscribe")).toEqual([
      { runId: "run-1", afterSeq: 0 },
      { runId: "run-1", afterSeq: 3 },
    ]);
    expect(payloads("subscribe_session")).toEqual([
      { sessionId: "ses_test1", afterSeq: 0 },
      { sessionId: "ses_test1", afterSeq: 4 },
    ]);
    expect(runSeqs).toEqual([1, 2, 3, 4, 5]);
    expect(sessionSeqs).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("watches an agent once for both lists; one list stopping leaves the other's watch", async () => {
    const { server, runs, sessions } = setup();
    await settle();
    const heardRuns: string[] = [];
    const stopRuns = runs.watchAgent("research-agent", (run) => heardRuns.push(run.id));
    const stopSessions = sessions.watchSessions("research-agent", () => undefined);
    expect(server.received.filter((message) => message.name === "watch_agent")).toHaveLength(1);
    stopSessions();
    server.publishRun(makeRunRecord({ id: "run-7", agentId: "research-agent" }));
    expect(heardRuns).toEqual(["run-7"]);
    expect(server.received.some((message) => message.name === "unwatch_agent")).toBe(false);
    stopRuns();
    expect(server.received.filter((message) => message.name === "unwatch_agent")).toHaveLength(1);
  });
});
