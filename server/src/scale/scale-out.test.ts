import type { RunEvent, RunRecord, SessionEvent, SessionRecord } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "../testing/real-parts.js";
import {
  SCALE_AGENT,
  startTestCluster,
  type ClusterInstance,
  type TestCluster,
} from "../testing/start-test-cluster.js";

const skip = getMissingPartsReason(["postgres", "redis"]);

/** Read steps only: a takeover never waits for a person. */
const READS_AGENT = {
  ...SCALE_AGENT,
  id: "scale-reads",
  name: "Scale reads",
  tools: SCALE_AGENT.tools.filter((tool) => tool.name !== "charge_card"),
  hints: { ordering_hints: ["step_one", "step_two", "step_three", "step_four"] },
};
/** Read steps as a session's background task: the offline model spawns a sub-agent for "in the background". */
const TASKS_AGENT = {
  ...READS_AGENT,
  id: "scale-tasks",
  name: "Scale tasks",
  planner: { tasks: { enabled: true, spawnRequiresConfirmation: false, timeoutS: 120 } },
};
/** The charge always asks a person first. */
const APPROVAL_AGENT = {
  ...SCALE_AGENT,
  id: "scale-approval",
  name: "Scale approval",
  tools: SCALE_AGENT.tools.map((tool) =>
    tool.name === "charge_card" ? { ...tool, requiresApproval: true } : tool,
  ),
};

/** A socket.io viewer of one run on one instance, from `afterSeq`. */
function watch(instance: ClusterInstance, runId: string, afterSeq = 0) {
  const socket: Socket = connect(instance.url, { transports: ["websocket"], reconnection: false });
  const events: RunEvent[] = [];
  socket.on("event", (event: RunEvent) => events.push(event));
  socket.on("connect", () => socket.emit("subscribe", { runId, afterSeq }));
  const until = (match: (event: RunEvent) => boolean, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      const check = () => {
        if (events.some(match)) return resolve();
        if (Date.now() > deadline) return reject(new Error(`viewer of ${runId} never saw the event`));
        setTimeout(check, 20);
      };
      check();
    });
  return { socket, events, until, close: () => socket.close() };
}

const isEnd = (event: RunEvent) => event.type === "run_finished" || event.type === "run_failed";

function expectContiguous(events: readonly RunEvent[]): void {
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls an async read until `check` holds, failing after `timeoutMs`. */
async function poll<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out; last read: ${JSON.stringify(value).slice(0, 2_000)}`);
    await sleep(50);
  }
}

async function waitFor<T>(read: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(20);
  }
}

describe.skipIf(skip)("scale-out: three Waddle processes on PostgreSQL and Redis", () => {
  let cluster: TestCluster;
  let api: ClusterInstance;
  const workers: ClusterInstance[] = [];
  beforeAll(async () => {
    cluster = await startTestCluster({ WADDLE_TEST_STEP_MS: "250", WADDLE_TEST_CHARGE_MS: "1500" });
    api = await cluster.start("api");
    workers.push(...(await Promise.all([cluster.start("worker"), cluster.start("worker")])));
    for (const agent of [SCALE_AGENT, READS_AGENT, APPROVAL_AGENT, TASKS_AGENT])
      expect((await api.request("/api/agents", { json: agent })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  const startRun = async (agentId: string, on: ClusterInstance = api) => {
    const { status, body } = await on.request("/api/runs", { json: { agentId, query: "go" } });
    expect(status).toBe(202);
    return body.runId as string;
  };
  const alive = () => workers.filter((worker) => worker.child.exitCode === null && !worker.child.signalCode);
  const byPid = (pid: number) => workers.find((worker) => worker.pid === pid)!;
  const callsSince = (since: number) => cluster.calls().filter((call) => call.at >= since);

  it("shows a viewer on the API instance every event of a run on a worker, exactly once", async () => {
    const watcher: Socket = connect(api.url, { transports: ["websocket"], reconnection: false });
    const updates: RunRecord[] = [];
    watcher.on("run_updated", (run: RunRecord) => updates.push(run));
    await new Promise<void>((resolve) =>
      watcher.emit("watch_agent", { agentId: "scale-reads" }, () => resolve()),
    );
    const runId = await startRun("scale-reads");
    const viewer = watch(api, runId);
    await viewer.until(isEnd);
    viewer.close();
    const stored = await cluster.getEvents(runId);
    expectContiguous(stored);
    expect(viewer.events.map((event) => event.seq)).toEqual(stored.map((event) => event.seq));
    expect((await cluster.getRun(runId)).status).toBe("finished");
    // The agent's watchers on the API instance hear of the run's changes on the worker too.
    await waitFor(() =>
      updates.some((run) => run.id === runId && run.status === "finished") ? true : undefined,
    );
    expect(updates.filter((run) => run.id === runId).map((run) => run.status)).toContain("running");
    watcher.close();
  });

  it("continues a killed worker's run on another: no completed call repeated, the external one paused", async () => {
    const since = Date.now();
    const runId = await startRun("scale-chain");
    const viewer = watch(api, runId);
    const charge = await waitFor(() =>
      callsSince(since).find((call) => call.tool === "charge_card" && call.phase === "start"),
    );
    const killed = byPid(charge.pid);
    killed.child.kill("SIGKILL");
    const killedAt = Date.now();
    try {
      const paused = await cluster.waitForRun(runId, (run) => run.status === "paused", 20_000);
      expect(Date.now() - killedAt).toBeLessThan(15_000);
      expect(paused.pause?.payload).toMatchObject({ tool: "charge_card", interrupted: true });
      const answer = await api.request(`/api/runs/${runId}/resume`, {
        json: { resumeToken: paused.pause!.resumeToken, decision: "approve" },
      });
      expect(answer.status).toBe(202);
      const run = await cluster.waitForRun(runId);
      expect(run.status).toBe("finished");
      await viewer.until(isEnd);
      viewer.close();
      const stored = await cluster.getEvents(runId);
      expectContiguous(stored);
      expect(viewer.events.map((event) => event.seq)).toEqual(stored.map((event) => event.seq));
      expect(stored.filter((event) => event.type === "run_recovered")).toHaveLength(1);
      const ends = callsSince(since).filter((call) => call.phase === "end");
      for (const tool of ["step_one", "step_two", "step_three", "charge_card", "step_four"])
        expect(
          ends.filter((call) => call.tool === tool),
          tool,
        ).toHaveLength(1);
      expect(ends.find((call) => call.tool === "charge_card")?.pid).not.toBe(killed.pid);
    } finally {
      // The later tests need two workers, whatever became of this one.
      workers.push(await cluster.start("worker"));
    }
  }, 60_000);

  it("refuses the writes of a worker frozen past its claim and thawed", async () => {
    const since = Date.now();
    const runId = await startRun("scale-reads");
    const step = await waitFor(() => callsSince(since).find((call) => call.tool === "step_two"));
    const frozen = byPid(step.pid);
    frozen.child.kill("SIGSTOP");
    try {
      // Takeover time is the kill test's: this one is about fencing, so a loaded machine may take longer.
      const deadline = Date.now() + 25_000;
      while (!(await cluster.getEvents(runId)).some((event) => event.type === "run_recovered")) {
        if (Date.now() > deadline) {
          const logs = alive().map((worker) => `--- worker ${worker.pid}\n${worker.output().slice(-4_000)}`);
          throw new Error(`no other worker took the run over (frozen: ${frozen.pid})\n${logs.join("\n")}`);
        }
        await sleep(50);
      }
    } finally {
      frozen.child.kill("SIGCONT");
    }
    const run = await cluster.waitForRun(runId);
    expect(run.status).toBe("finished");
    await waitFor(() => (/claimed by another worker/.test(frozen.output()) ? true : undefined), 10_000).catch(
      (error: unknown) => {
        // What the thawed worker did instead of saying its writes were refused.
        process.stderr.write(`--- thawed worker ${frozen.pid}\n${frozen.output().slice(-4_000)}\n`);
        throw error;
      },
    );
    const stored = await cluster.getEvents(runId);
    expectContiguous(stored);
    const recovered = stored.find((event) => event.type === "run_recovered")!;
    const after = stored.filter((event) => event.seq > recovered.seq && event.type === "tool_end");
    expect(after.length).toBeGreaterThan(0);
    for (const event of after) expect(JSON.stringify(event.data)).not.toContain(`"pid":${frozen.pid}`);
    expect(stored.filter((event) => event.type === "run_finished")).toHaveLength(1);
  }, 60_000);

  it("hands a stopping worker's runs over: another continues them from their checkpoint at once", async () => {
    const since = Date.now();
    const runId = await startRun("scale-reads");
    const step = await waitFor(() => callsSince(since).find((call) => call.tool === "step_two"));
    const stopping = byPid(step.pid);
    const stoppedAt = Date.now();
    await stopping.stop();
    const run = await cluster.waitForRun(runId);
    if (run.status !== "finished") {
      const events = (await cluster.getEvents(runId)).map((event) => `${event.seq}:${event.type}`);
      process.stderr.write(`${events.join(" ")}\n${stopping.pid}\n${stopping.output().slice(-3_000)}\n`);
      for (const worker of alive())
        process.stderr.write(`--- ${worker.pid}\n${worker.output().slice(-3_000)}\n`);
    }
    expect(run.status).toBe("finished");
    const stored = await cluster.getEvents(runId);
    expectContiguous(stored);
    const recovered = stored.find((event) => event.type === "run_recovered");
    expect(recovered?.ts).toBeLessThan(stoppedAt + 3_000);
    expect(stored.some((event) => event.type === "run_interrupted")).toBe(false);
    workers.push(await cluster.start("worker"));
  }, 60_000);

  it("continues a session's background task on another worker when its worker is killed; the next turn sees it", async () => {
    const since = Date.now();
    const created = await api.request("/api/sessions", { json: { agentId: "scale-tasks" } });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    const getSession = async () => (await api.request(`/api/sessions/${sessionId}`)).body as SessionRecord;
    const turn = await api.request("/api/runs", {
      json: { sessionId, query: "Walk the steps in the background" },
    });
    expect(turn.status).toBe(202);
    expect((await cluster.waitForRun(turn.body.runId as string)).status).toBe("finished");
    const spawned = await poll(getSession, (record) => record.tasks.length > 0);
    const task = spawned.tasks[0]!;
    expect(task).toMatchObject({ parentRunId: turn.body.runId, turn: 1 });
    // The turn has answered; the task's run is on a worker now: kill that worker mid-step.
    const step = await waitFor(() =>
      callsSince(since).find((call) => call.tool === "step_two" && call.phase === "start"),
    );
    // Kill once step_one's end is stored: a read whose end was never stored may rightly run again.
    await poll(
      () => cluster.getEvents(task.runId),
      (events) => events.some((event) => event.type === "tool_start" && event.data.tool === "step_two"),
    );
    const killed = byPid(step.pid);
    killed.child.kill("SIGKILL");
    try {
      const taskRun = await cluster.waitForRun(task.runId, undefined, 40_000);
      expect(taskRun).toMatchObject({ status: "finished", kind: "task", sessionId });
      const stored = await cluster.getEvents(task.runId);
      expectContiguous(stored);
      expect(stored.filter((event) => event.type === "run_recovered")).toHaveLength(1);
      const ends = callsSince(since).filter((call) => call.phase === "end");
      for (const tool of ["step_one", "step_two", "step_three", "step_four"])
        expect(
          ends.filter((call) => call.tool === tool),
          tool,
        ).toHaveLength(1);
      // The session hears of the end once, and the next turn (on any instance) has the result.
      const done = await poll(getSession, (record) => record.tasks[0]?.status === "completed");
      expect(done.tasks[0]?.status).toBe("completed");
      const log = (await api.request(`/api/sessions/${sessionId}/events`)).body.events as SessionEvent[];
      expect(
        log.filter((event) => event.type === "task_update" && event.data.status === "completed"),
      ).toHaveLength(1);
      const next = await alive()[0]!.request("/api/runs", {
        json: { sessionId, query: "What did the steps find?" },
      });
      expect(next.status).toBe(202);
      expect((await cluster.waitForRun(next.body.runId as string)).status).toBe("finished");
      const after = await poll(getSession, (record) => record.turns[1]?.status === "finished");
      expect(after.turns[1]?.answer).toContain("step_four");
      // A viewer of the session on the API instance hears what a worker instance writes (it closes it).
      const viewer: Socket = connect(api.url, { transports: ["websocket"], reconnection: false });
      const heard: SessionEvent[] = [];
      viewer.on("session_event", (event: SessionEvent) => heard.push(event));
      await new Promise<void>((resolve) => viewer.on("connect", () => resolve()));
      await new Promise((resolve) => viewer.emit("subscribe_session", { sessionId, afterSeq: 0 }, resolve));
      const closed = await alive()[0]!.request(`/api/sessions/${sessionId}`, { method: "DELETE" });
      expect(closed.status).toBe(200);
      await poll(
        async () => heard,
        (events) => events.some((event) => event.type === "session_closed"),
      );
      const sessionLog = (await api.request(`/api/sessions/${sessionId}/events`)).body
        .events as SessionEvent[];
      expect(heard.map((event) => event.seq)).toEqual(sessionLog.map((event) => event.seq));
      viewer.close();
    } finally {
      workers.push(await cluster.start("worker"));
    }
  }, 90_000);

  it("takes the first of two approvals sent at once to two instances, and answers the other 409", async () => {
    const runId = await startRun("scale-approval");
    const paused = await cluster.waitForRun(runId, (run) => run.status === "paused");
    const body = { resumeToken: paused.pause!.resumeToken, decision: "approve" };
    const answers = await Promise.all([
      api.request(`/api/runs/${runId}/resume`, { json: body }),
      alive()[0]!.request(`/api/runs/${runId}/resume`, { json: body }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.details.reason).toBe("already_answered");
    expect((await cluster.waitForRun(runId)).status).toBe("finished");
    // A late answer on an instance that saw neither: the run's events tell it the pause was answered.
    const late = await alive().at(-1)!.request(`/api/runs/${runId}/resume`, { json: body });
    expect([late.status, late.body.details.reason]).toEqual([409, "already_answered"]);
    const ends = (await cluster.getEvents(runId)).filter(
      (event) => event.type === "tool_end" && (event.data as { tool?: string }).tool === "charge_card",
    );
    expect(ends).toHaveLength(1);
  }, 60_000);

  it("cancels a run from an instance that does not run it, within a second", async () => {
    const since = Date.now();
    const runId = await startRun("scale-reads");
    await waitFor(() => callsSince(since).find((call) => call.tool === "step_one"));
    const started = Date.now();
    const answer = await api.request(`/api/runs/${runId}/cancel`, { method: "POST" });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(answer.body.status).toBe("cancelled");
    const stored = await cluster.getEvents(runId);
    expectContiguous(stored);
    expect(stored.at(-1)).toMatchObject({ type: "run_finished", data: { reason: "cancelled" } });
  }, 30_000);

  it("continues a viewer that reconnects to a different instance from its last seq", async () => {
    const runId = await startRun("scale-reads");
    const first = watch(api, runId);
    await first.until((event) => event.type === "tool_end");
    first.close();
    const last = first.events.at(-1)!.seq;
    const second = watch(alive()[0]!, runId, last);
    await second.until(isEnd);
    second.close();
    const seen = [...first.events, ...second.events].map((event) => event.seq);
    const stored = await cluster.getEvents(runId);
    expect(seen).toEqual(stored.map((event) => event.seq));
  }, 30_000);

  it("loses no run and no event when PostgreSQL and then Redis restart mid-run", async () => {
    const since = Date.now();
    const runId = await startRun("scale-reads");
    const viewer = watch(api, runId);
    await waitFor(() => callsSince(since).find((call) => call.tool === "step_one"));
    await cluster.postgres.stop();
    const down = await api.request("/api/health");
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ ok: false, parts: { database: "down", redis: "up" } });
    await sleep(800);
    await cluster.postgres.start();
    await waitFor(() => callsSince(since).find((call) => call.tool === "step_three"));
    await cluster.redis.stop();
    const redisDown = await api.request("/api/health");
    expect(redisDown.status).toBe(503);
    expect(redisDown.body.parts.redis).toBe("down");
    await sleep(800);
    await cluster.redis.start();
    expect((await cluster.waitForRun(runId, undefined, 40_000)).status).toBe("finished");
    const stored = await cluster.getEvents(runId);
    expectContiguous(stored);
    await viewer.until(isEnd);
    viewer.close();
    expect(viewer.events.map((event) => event.seq)).toEqual(stored.map((event) => event.seq));
    // The queue works again: a run started now (its job in a Redis that lost everything) ends too.
    const next = await startRun("scale-reads");
    expect((await cluster.waitForRun(next, undefined, 30_000)).status).toBe("finished");
    const healthy = await api.request("/api/health");
    expect(healthy.body).toMatchObject({ ok: true, parts: { database: "up", redis: "up" } });
  }, 90_000);
});
