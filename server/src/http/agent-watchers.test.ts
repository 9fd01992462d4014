import { RunRecord, type WatchAgentAck } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import type { PlannerFactory } from "../runs/planner-factory.js";

interface Watcher {
  socket: Socket;
  /** Every `run_updated` received, each checked against the protocol's RunRecord. */
  updates: RunRecord[];
  /** The first update (received already or to come) that matches. */
  waitFor(match: (run: RunRecord) => boolean): Promise<RunRecord>;
  emitWithAck(event: string, message: unknown): Promise<WatchAgentAck>;
}

const open: Socket[] = [];
afterAll(() => {
  for (const socket of open) socket.disconnect();
});

async function connectWatcher(url: string, token?: string): Promise<Watcher> {
  const socket = connect(url, {
    transports: ["websocket"],
    reconnection: false,
    ...(token ? { auth: { token } } : {}),
  });
  open.push(socket);
  const updates: RunRecord[] = [];
  const waiting = new Set<{ match: (run: RunRecord) => boolean; resolve: (run: RunRecord) => void }>();
  socket.on("run_updated", (run: unknown) => {
    const parsed = RunRecord.parse(run);
    updates.push(parsed);
    for (const waiter of waiting) {
      if (!waiter.match(parsed)) continue;
      waiting.delete(waiter);
      waiter.resolve(parsed);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", resolve);
    socket.on("connect_error", reject);
  });
  return {
    socket,
    updates,
    waitFor: (match) =>
      new Promise((resolve, reject) => {
        const seen = updates.find(match);
        if (seen) return resolve(seen);
        const waiter = { match, resolve };
        waiting.add(waiter);
        // Fails with what did arrive, rather than the test's bare timeout.
        setTimeout(() => {
          if (!waiting.delete(waiter)) return;
          const got = updates.map((run) => `${run.id}:${run.status}:${run.steps ?? "-"}`);
          reject(new Error(`no matching run_updated; got ${got.join(" ") || "none"}`));
        }, 15_000).unref();
      }),
    emitWithAck: (event, message) =>
      new Promise((resolve) => socket.emit(event, message, (ack: WatchAgentAck) => resolve(ack))),
  };
}

async function watch(url: string, agentId: string, token?: string): Promise<Watcher> {
  const watcher = await connectWatcher(url, token);
  expect(await watcher.emitWithAck("watch_agent", { agentId })).toEqual({ ok: true });
  return watcher;
}

/** True when `seen` goes through `order` forwards, skipping some and repeating one in a row at most. */
function followsOrder(seen: readonly string[], order: readonly string[]): boolean {
  let at = -1;
  for (const status of seen) {
    if (order[at] === status) continue;
    const next = order.indexOf(status, at + 1);
    if (next < 0) return false;
    at = next;
  }
  return true;
}

/** The statuses a watcher saw for one run, in order. */
const statusesOf = (watcher: Watcher, runId: string) =>
  watcher.updates.filter((run) => run.id === runId).map((run) => run.status);

describe("watch_agent with the offline model", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ maxConcurrentRuns: 4 });
  });
  afterAll(() => server.stop());

  it("sends a run of the agent, as GET /api/runs/:id answers it, from its creation through a pause to its end", async () => {
    const first = await watch(server.url, "email-approval");
    const second = await watch(server.url, "email-approval");
    const elsewhere = await watch(server.url, "support-triage");
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "email-approval", query: "Email Dana that the Q3 report is ready" },
    });
    const runId = started.body.runId as string;
    // The pause is announced with its status first; its metadata (steps, time) is saved after it.
    const paused = await first.waitFor(
      (run) => run.id === runId && run.status === "paused" && run.steps !== undefined,
    );
    expect(paused.pause?.reason).toBe("approval_required");
    expect(paused.steps).toBeGreaterThan(0);
    expect(paused.durationMs).toBeGreaterThanOrEqual(0);
    expect(paused).toEqual((await server.request(`/api/runs/${runId}`)).body);

    const resumed = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken: paused.pause!.resumeToken, decision: "approve" },
    });
    expect(resumed.status).toBe(202);
    const finished = await first.waitFor((run) => run.id === runId && run.status === "finished");
    await second.waitFor((run) => run.id === runId && run.status === "finished");
    const current = (await server.request(`/api/runs/${runId}`)).body;
    expect(first.updates.at(-1)).toEqual(current);
    expect(finished).toMatchObject({ steps: current.steps, durationMs: current.durationMs });
    expect(finished.usage.llmCalls).toBe(current.usage.llmCalls);

    // Statuses arrive in the run's order (a status that lasted less than a store read may be folded into
    // the next one), and both pages got the same.
    const seen = statusesOf(first, runId);
    expect(
      followsOrder(seen, ["queued", "running", "paused", "queued", "running", "finished"]),
      seen.join(),
    ).toBe(true);
    expect(seen).toContain("paused");
    expect(statusesOf(second, runId)).toEqual(seen);
    expect(elsewhere.updates.filter((run) => run.id === runId)).toEqual([]);
  });

  it("stops after unwatch_agent and on another agent's room", async () => {
    const watcher = await watch(server.url, "support-triage");
    watcher.socket.emit("unwatch_agent", { agentId: "support-triage" });
    const other = await watch(server.url, "support-triage");
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "support-triage", query: "My invoice is wrong" },
    });
    const runId = started.body.runId as string;
    await other.waitFor((run) => run.id === runId && run.status === "finished");
    expect(watcher.updates.filter((run) => run.id === runId)).toEqual([]);
  });

  it("answers a bad message with an error ack, ignores one without an ack, and keeps serving", async () => {
    const watcher = await connectWatcher(server.url);
    for (const message of [undefined, "email-approval", { agentId: "Not A Slug" }, { agentId: "a", x: 1 }]) {
      const ack = await watcher.emitWithAck("watch_agent", message);
      expect(ack).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    }
    watcher.socket.emit("watch_agent", { agentId: 42 });
    watcher.socket.emit("watch_agent");
    watcher.socket.emit("unwatch_agent", null);
    watcher.socket.emit("unwatch_agent", { agentId: ["x"] });
    const many = Array.from({ length: 50 }, (_, index) => `agent-${index}`);
    for (const agentId of many)
      expect(await watcher.emitWithAck("watch_agent", { agentId })).toEqual({ ok: true });
    // Watching one already watched is no new room; a 51st is refused.
    expect(await watcher.emitWithAck("watch_agent", { agentId: "agent-0" })).toEqual({ ok: true });
    expect(await watcher.emitWithAck("watch_agent", { agentId: "agent-50" })).toMatchObject({
      ok: false,
      error: { code: "rate_limited" },
    });
    expect(await watcher.emitWithAck("watch_agent", { agentId: "email-approval" })).toMatchObject({
      ok: false,
    });
    watcher.socket.emit("unwatch_agent", { agentId: "agent-0" });
    expect(await watcher.emitWithAck("watch_agent", { agentId: "email-approval" })).toEqual({ ok: true });
    expect(watcher.socket.connected).toBe(true);
    expect((await server.request("/api/health")).status).toBe(200);
  });
});

describe("watch_agent behind a token, for every way a run ends", () => {
  const TOKEN = "watch-token-0123456789abcdef";
  const auth = { authorization: `Bearer ${TOKEN}` };
  let server: TestServer;
  /** "fail" fails at once; anything else runs until it is cancelled. */
  const createPlanner: PlannerFactory = async () => ({
    offline: true,
    planner: {
      run: (query, options) =>
        new Promise((_resolve, reject) => {
          if (query === "fail") reject(new Error("the model is out of order"));
          options.signal?.addEventListener("abort", () => reject(options.signal?.reason));
        }),
      resume: () => Promise.reject(new Error("nothing pauses here")),
    },
  });
  beforeAll(async () => {
    server = await startTestServer({ token: TOKEN, createPlanner, maxConcurrentRuns: 1 });
  });
  afterAll(() => server.stop());

  const start = async (query: string) => {
    const started = await server.request("/api/runs", {
      method: "POST",
      headers: auth,
      json: { agentId: "support-triage", query },
    });
    expect(started.status).toBe(202);
    return started.body.runId as string;
  };

  it("refuses a socket without the token", async () => {
    await expect(connectWatcher(server.url)).rejects.toThrow(/unauthorized/);
    await expect(connectWatcher(server.url, "wrong-token-wrong-token")).rejects.toThrow(/unauthorized/);
  });

  it("announces queued, running, cancelled, failed and interrupted runs", async () => {
    const watcher = await watch(server.url, "support-triage", TOKEN);
    const running = await start("wait");
    const queued = await start("wait");
    await watcher.waitFor((run) => run.id === running && run.status === "running");
    // Created, and held in the queue behind the first (one run at a time here).
    const waiting = await watcher.waitFor((run) => run.id === queued);
    expect(waiting).toMatchObject({ status: "queued", startedAt: null, query: "wait" });

    await server.request(`/api/runs/${queued}/cancel`, { method: "POST", headers: auth });
    await watcher.waitFor((run) => run.id === queued && run.status === "cancelled");
    await server.request(`/api/runs/${running}/cancel`, { method: "POST", headers: auth });
    const cancelled = await watcher.waitFor((run) => run.id === running && run.status === "cancelled");
    expect(cancelled.finishedAt).not.toBeNull();

    const failing = await start("fail");
    const failed = await watcher.waitFor((run) => run.id === failing && run.status === "failed");
    expect(failed.error?.message).toContain("out of order");
    expect(failed.durationMs).toBeGreaterThanOrEqual(0);

    // A run the previous process left running, found at start.
    await server.store.createRun({
      id: "run_leftover01",
      agentId: "support-triage",
      agentVersion: 1,
      query: "q",
      status: "running",
    });
    await server.runs.recoverRuns();
    await watcher.waitFor((run) => run.id === "run_leftover01" && run.status === "interrupted");
    expect((await waitForRun(server, "run_leftover01")).status).toBe("interrupted");
  });
});
