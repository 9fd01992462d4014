import { TIMEOUT_ACTOR, type RunEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditTrail } from "../access/audit-trail.js";
import { SessionService } from "../sessions/session-service.js";
import { createLogger } from "../shared/logger.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForEvent, waitForRun } from "../testing/wait-for-run.js";
import { createInbox } from "./create-inbox.js";
import type { InboxEvent } from "./inbox-events.js";

/** An agent whose offline model calls `refund` at once; the call waits for a person, at most `approval`. */
const refunder = (id: string, approval: { timeoutS: number; onTimeout: string }) => ({
  version: 1,
  id,
  name: `Refunds ${id}`,
  tools: [
    {
      name: "refund",
      desc: "Refunds an order.",
      sideEffects: "write",
      requiresApproval: true,
      approval,
      argsSchema: {
        type: "object",
        properties: { order: { type: "string", examples: ["A-1"] } },
        required: ["order"],
      },
      impl: { kind: "mock", output: { refunded: true } },
    },
  ],
});

let server: TestServer;
const events: InboxEvent[] = [];
beforeAll(async () => {
  server = await startTestServer({ exampleAgentsDir: null });
  server.inbox.events.on((event) => void events.push(event));
  for (const [id, approval] of [
    ["rejects", { timeoutS: 1, onTimeout: "reject" }],
    ["fails", { timeoutS: 1, onTimeout: "fail" }],
    ["approves", { timeoutS: 1, onTimeout: "approve" }],
    ["waits", { timeoutS: 3_600, onTimeout: "reject" }],
  ] as const) {
    const created = await server.request("/api/agents", { method: "POST", json: refunder(id, approval) });
    expect(created.status, created.text).toBe(201);
  }
});
afterAll(() => server.stop());

async function startRun(agentId: string): Promise<string> {
  const started = await server.request("/api/runs", {
    method: "POST",
    json: { agentId, query: "Refund A-1" },
  });
  expect(started.status, started.text).toBe(202);
  return started.body.runId as string;
}

const eventsOf = async (runId: string) =>
  (await server.request(`/api/runs/${runId}/events`)).body.events as RunEvent[];
const timeoutAudit = async (runId: string) =>
  (
    (await server.request(`/api/audit?actor=${TIMEOUT_ACTOR}`)).body.entries as {
      action: string;
      target: { id: string };
      details: Record<string, unknown>;
    }[]
  ).filter((entry) => entry.target.id === runId);
const inboxEventsOf = (runId: string) => events.filter((event) => event.item.runId === runId);
/** Resolves once the server announced its decision on the run's pause (after the audit log has it). */
const timedOut = (runId: string) =>
  new Promise<void>((resolve) => {
    if (inboxEventsOf(runId).some((event) => event.type === "pause.timed_out")) return resolve();
    const stop = server.inbox.events.on((event) => {
      if (event.type !== "pause.timed_out" || event.item.runId !== runId) return;
      stop();
      resolve();
    });
  });

describe("a pause past its time limit", () => {
  it("is rejected by the server once, with actor timeout in the events and the audit log, and the run goes on", async () => {
    const runId = await startRun("rejects");
    const resumed = await waitForEvent(server, runId, (event) => event.type === "resumed");
    expect(resumed.data).toMatchObject({
      decision: "reject",
      actor: TIMEOUT_ACTOR,
      note: expect.stringContaining('approval.onTimeout "reject"'),
    });
    const run = await waitForRun(server, runId);
    expect(run.status).toBe("finished");
    await timedOut(runId);
    const stored = await eventsOf(runId);
    const pause = stored.find((event) => event.type === "pause");
    expect(pause?.data).toMatchObject({
      onTimeout: "reject",
      dueAt: new Date(pause!.ts + 1_000).toISOString(),
    });
    expect(stored.filter((event) => event.type === "resumed")).toHaveLength(1);
    expect(stored.some((event) => event.type === "tool_end")).toBe(false);
    expect(await timeoutAudit(runId)).toEqual([
      expect.objectContaining({
        action: "run.decision",
        details: expect.objectContaining({
          decision: "reject",
          via: "timeout",
          agentId: "rejects",
          tool: "refund",
        }),
      }),
    ]);
    // Announced once each: it began waiting, its time was nearly up, the server decided.
    expect(inboxEventsOf(runId).map((event) => [event.type, event.decision])).toEqual([
      ["pause.created", undefined],
      ["pause.due_soon", undefined],
      ["pause.timed_out", "reject"],
    ]);
    expect(inboxEventsOf(runId)[0]?.id).toBe(`pause.created:pause:${runId}:${pause!.data.resumeToken}`);
  });

  it('ends the run failed with approval_timed_out on "fail", and a late answer is 409 already_answered', async () => {
    const runId = await startRun("fails");
    const run = await waitForRun(server, runId);
    expect(run.status).toBe("failed");
    await timedOut(runId);
    expect(run.error).toMatchObject({
      code: "approval_timed_out",
      message: expect.stringContaining("refund"),
    });
    const failed = (await eventsOf(runId)).find((event) => event.type === "run_failed");
    expect(failed?.data).toMatchObject({ actor: TIMEOUT_ACTOR, error: { code: "approval_timed_out" } });
    const pause = (await eventsOf(runId)).find((event) => event.type === "pause")!;
    const late = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken: pause.data.resumeToken, decision: "approve" },
    });
    expect(late.status).toBe(409);
    expect(late.body.details.reason).toBe("already_answered");
    expect((await timeoutAudit(runId)).map((entry) => entry.details["decision"])).toEqual(["fail"]);
    expect(
      (await server.request("/api/inbox?state=all")).body.items.map((item: { runId: string }) => item.runId),
    ).not.toContain(runId);
  });

  it('runs the call on "approve"', async () => {
    const runId = await startRun("approves");
    const run = await waitForRun(server, runId);
    expect(run.status).toBe("finished");
    const stored = await eventsOf(runId);
    expect(stored.find((event) => event.type === "resumed")?.data).toMatchObject({
      decision: "approve",
      actor: TIMEOUT_ACTOR,
    });
    expect(stored.filter((event) => event.type === "tool_end").map((event) => event.data.tool)).toEqual([
      "refund",
    ]);
  });
});

describe("instances racing at a due time", () => {
  /** Another instance's inbox on the same store and runs, whose clock reads `now`. */
  const instance = (now: () => number) => {
    const logger = createLogger({ level: "silent" });
    const inbox = createInbox({
      store: server.store,
      runs: server.runs,
      hub: server.hub,
      sessions: new SessionService(server.store),
      audit: new AuditTrail({ store: server.store.audit, logger }),
      logger,
      now,
    });
    const heard: InboxEvent[] = [];
    inbox.events.on((event) => void heard.push(event));
    return { inbox, heard };
  };

  it("decides it exactly once, whichever comes first, and not at all once a person answered", async () => {
    const runId = await startRun("waits");
    const paused = await waitForRun(server, runId, new Set(["paused"]));
    const due = Date.parse(paused.pause!.dueAt!);
    // Three instances at its due time, one just before it: each sweeps at once.
    const racers = [due + 1, due + 5, due + 1_000, due - 1_000].map((at) => instance(() => at));
    await Promise.all(racers.map((racer) => racer.inbox.sweeper.sweep()));
    const decided = racers
      .flatMap((racer) => racer.heard)
      .filter((event) => event.type === "pause.timed_out");
    expect(decided.map((event) => event.item.runId)).toEqual([runId]);
    await waitForRun(server, runId);
    expect((await eventsOf(runId)).filter((event) => event.type === "resumed")).toHaveLength(1);
    expect(await timeoutAudit(runId)).toHaveLength(1);
    // The one before its time announced it was due soon, once across all of them.
    expect(
      racers.flatMap((racer) => racer.heard).filter((event) => event.type === "pause.due_soon"),
    ).toHaveLength(1);

    const answered = await startRun("waits");
    const second = await waitForRun(server, answered, new Set(["paused"]));
    const resume = await server.request(`/api/runs/${answered}/resume`, {
      method: "POST",
      json: { resumeToken: second.pause!.resumeToken, decision: "approve" },
    });
    expect(resume.status).toBe(202);
    const late = instance(() => Date.parse(second.pause!.dueAt!) + 1);
    await late.inbox.sweeper.sweep();
    await waitForRun(server, answered);
    expect(late.heard.filter((event) => event.type === "pause.timed_out")).toEqual([]);
    expect((await eventsOf(answered)).find((event) => event.type === "resumed")?.data.actor).toBeUndefined();
    for (const racer of [...racers, late]) racer.inbox.close();
  });
});

describe("announcing a held merge", () => {
  it("sends merge.pending once when its session changes, however often it is told", async () => {
    const sessionId = "ses_heldbatch";
    await server.store.sessions.create({ id: sessionId, agentId: "waits", agentVersion: 1 });
    await server.store.sessions.update(sessionId, () => ({
      events: [
        {
          type: "merge_pending",
          data: { mergeId: "merge_1", name: "Research batch", strategy: "HUMAN_GATED", tasks: [] },
        },
      ],
      result: undefined,
    }));
    const announced = new Promise<InboxEvent>((resolve) => {
      const stop = server.inbox.events.on((event) => {
        if (event.type !== "merge.pending" || event.item.sessionId !== sessionId) return;
        stop();
        resolve(event);
      });
    });
    // What the session service's change notice does (create-inbox.ts), twice over.
    server.inbox.service.noteChange({ sessionId });
    server.inbox.service.noteChange({ sessionId });
    const event = await announced;
    expect(event).toMatchObject({
      id: `merge.pending:merge:${sessionId}:merge_1:merge_1`,
      item: { kind: "merge", mergeId: "merge_1", reason: "Research batch" },
    });
    await server.inbox.sweeper.sweep();
    expect(
      events.filter(
        (candidate) => candidate.type === "merge.pending" && candidate.item.sessionId === sessionId,
      ),
    ).toHaveLength(1);
  });
});
