import type { TestRunRecord } from "@waddle/protocol";
import { describe, expect, it, vi } from "vitest";
import { FakeSocketServer } from "../testing/fake-socket-server.js";
import { makeRunRecord } from "../testing/fake-run-api.js";
import { settle } from "../testing/run-transport-conformance.js";

const testRun: TestRunRecord = {
  id: "tr_1",
  agentId: "agent-a",
  agentVersion: 1,
  status: "running",
  totals: { passed: 0, failed: 0, skipped: 0 },
  cases: [],
  createdAt: "2026-01-05T09:00:00Z",
  finishedAt: null,
};

async function setup() {
  const server = new FakeSocketServer();
  const connection = server.createConnection();
  await settle();
  const countSent = (name: string) => server.received.filter((message) => message.name === name).length;
  return { server, connection, countSent };
}

describe("agent watches", () => {
  it("asks the server once per agent, and hands each listener its own messages, checked", async () => {
    const { server, connection, countSent } = await setup();
    const runs: string[] = [];
    const testRuns: string[] = [];
    connection.agents.watch("agent-a", "run_updated", { onMessage: (run) => runs.push(run.id) });
    connection.agents.watch("agent-a", "test_run_updated", {
      onMessage: (record) => testRuns.push(record.id),
    });
    connection.agents.watch("agent-b", "run_updated", { onMessage: (run) => runs.push(`b:${run.id}`) });
    expect(countSent("watch_agent")).toBe(2);
    server.publishRun(makeRunRecord({ id: "run-1", agentId: "agent-a" }));
    server.publishTestRun(testRun);
    server.send("test_run_updated", { ...testRun, id: "tr_bad", status: "nonsense" });
    server.publishRun(makeRunRecord({ id: "run-2", agentId: "agent-b" }));
    expect(runs).toEqual(["run-1", "b:run-2"]);
    expect(testRuns).toEqual(["tr_1"]);
  });

  it("unwatches the agent only when its last listener stops", async () => {
    const { connection, countSent } = await setup();
    const stopRuns = connection.agents.watch("agent-a", "run_updated", { onMessage: () => undefined });
    const stopTests = connection.agents.watch("agent-a", "test_run_updated", { onMessage: () => undefined });
    stopTests();
    stopTests();
    expect(countSent("unwatch_agent")).toBe(0);
    stopRuns();
    expect(countSent("unwatch_agent")).toBe(1);
  });

  it("watches again after a reconnect, and tells each listener every time the server acknowledged", async () => {
    const { server, connection, countSent } = await setup();
    let watched = 0;
    const runs: string[] = [];
    connection.agents.watch("agent-a", "run_updated", {
      onMessage: (run) => runs.push(run.id),
      onWatched: () => (watched += 1),
    });
    server.dropConnection();
    server.restoreConnection();
    server.publishRun(makeRunRecord({ id: "run-1", agentId: "agent-a" }));
    expect(countSent("watch_agent")).toBe(2);
    expect(watched).toBe(2);
    expect(runs).toEqual(["run-1"]);
  });

  it("warns of a watch the server refuses, and tells no listener it is watched", async () => {
    const { server, connection } = await setup();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    server.refuseWatch = { code: "rate_limited", message: "too many agents" };
    let watched = 0;
    connection.agents.watch("agent-a", "session_updated", {
      onMessage: () => undefined,
      onWatched: () => (watched += 1),
    });
    expect(watched).toBe(0);
    expect(warn).toHaveBeenCalledWith('Cannot watch agent "agent-a": too many agents');
    warn.mockRestore();
  });
});
