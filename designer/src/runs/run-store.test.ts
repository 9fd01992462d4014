import type { RunEvent, RunStatus } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/api-error.js";
import { FakeRunApi, makeRunRecord } from "../testing/fake-run-api.js";
import { makeEvents, settle } from "../testing/run-transport-conformance.js";
import { getRunFixture, type RunFixtureName } from "../testing/run-fixtures.js";
import { FakeRunTransport } from "./transport/fake-run-transport.js";
import { createRunStore } from "./run-store.js";
import { selectEdgeRunState, selectNodeRunState } from "../run-views/use-run-store.js";

/** A run store over fakes, with frames and time moved by hand. */
function setup() {
  const transport = new FakeRunTransport();
  const api = new FakeRunApi(transport);
  const frames: (() => void)[] = [];
  let time = 0;
  const store = createRunStore({
    api,
    transport,
    scheduleFrame: (callback) => frames.push(callback),
    now: () => time,
    replayEvery: 10,
  });
  const runFrames = (elapsedMs = 16) => {
    time += elapsedMs;
    const due = frames.splice(0);
    for (const frame of due) frame();
    return due.length;
  };
  let updates = 0;
  store.subscribe(() => (updates += 1));
  return { transport, api, store, runFrames, updates: () => updates };
}

/** Puts a recorded run in the fake server, `stored` of its events so far, with the record's status. */
function addFixture(
  context: ReturnType<typeof setup>,
  name: RunFixtureName,
  options: { stored?: number; status?: RunStatus } = {},
) {
  const { spec, events } = getRunFixture(name);
  const runId = events[0]!.runId;
  const stored = events.slice(0, options.stored ?? events.length);
  context.api.addVersion(spec, 1);
  context.api.addRun(
    makeRunRecord({
      id: runId,
      agentId: spec.id,
      status: options.status ?? "running",
      createdAt: "2025-01-01T00:00:00Z",
      lastSeq: stored.length,
    }),
    stored,
  );
  return { spec, events, runId, rest: events.slice(stored.length) };
}

describe("createRunStore: a live run", () => {
  it("opens a running run from its stored events, on the spec that ran, and follows it live", async () => {
    const context = setup();
    const { runId, rest } = addFixture(context, "support-triage", { stored: 20 });
    await context.store.getState().openRun(runId);
    const state = context.store.getState();
    expect(state).toMatchObject({ mode: "live", runId, loading: false, status: "running" });
    expect(state.spec?.id).toBe("support-triage");
    expect(state.view?.lastSeq).toBe(20);
    expect(state.view?.transitions[1]?.edgeId).toBe("triage-retrieve");
    expect(context.transport.subscribeCalls).toEqual([{ runId, afterSeq: 20 }]);
    context.transport.pushEvents(rest.slice(0, 5));
    await settle();
    expect(context.store.getState().view?.lastSeq).toBe(20);
    context.runFrames();
    expect(context.store.getState().view?.lastSeq).toBe(25);
  });

  it("applies a burst of live events once per frame, in one batch", async () => {
    const context = setup();
    const { runId, rest } = addFixture(context, "support-triage", { stored: 1 });
    await context.store.getState().openRun(runId);
    await settle();
    const before = context.updates();
    for (const event of rest.slice(0, 30)) context.transport.pushEvents([event]);
    expect(context.updates()).toBe(before);
    expect(context.runFrames()).toBe(1);
    expect(context.updates()).toBe(before + 1);
    expect(context.store.getState().view?.lastSeq).toBe(31);
  });

  it("folds a batch of more than 500 live events over frames of at most 500 each, in order", async () => {
    const context = setup();
    const { runId } = addFixture(context, "support-triage", { stored: 1 });
    await context.store.getState().openRun(runId);
    await settle();
    context.transport.pushEvents(makeEvents(runId, 1200, 2));
    await settle();
    const seen: (number | undefined)[] = [];
    while (context.runFrames() > 0) seen.push(context.store.getState().view?.lastSeq);
    expect(seen).toEqual([501, 1001, 1201]);
  });

  it("goes to replay at the end of a live run, with every event once", async () => {
    const context = setup();
    const { runId, rest, events } = addFixture(context, "document-pipeline", { stored: 10 });
    await context.store.getState().openRun(runId);
    context.transport.pushEvents(rest.slice(0, 20));
    context.transport.disconnect();
    context.transport.pushEvents(rest.slice(20, 40));
    context.transport.reconnect();
    context.transport.pushEvents(rest.slice(15));
    await settle();
    context.runFrames();
    const state = context.store.getState();
    expect(state.mode).toBe("replay");
    expect(state.status).toBe("finished");
    expect(state.replay).toMatchObject({ position: events.length, length: events.length, playing: false });
    expect(state.view?.answer).toMatch(/^3 documents/);
    expect(state.view?.totals.autoSeqSaved).toBe(4);
    expect(context.transport.getSubscriptions()).toEqual([]);
  });

  it("shows the server's status when it knows more than the events so far", async () => {
    const context = setup();
    const { runId } = addFixture(context, "email-approval", { stored: 28, status: "paused" });
    await context.store.getState().openRun(runId);
    expect(context.store.getState().status).toBe("paused");
    context.transport.pushStatus({ runId, status: "queued", lastSeq: 28 });
    expect(context.store.getState().status).toBe("queued");
    expect(context.store.getState().run?.status).toBe("queued");
  });

  it("opens a run cancelled before it started, though no event will come", async () => {
    const context = setup();
    context.api.addVersion(getRunFixture("support-triage").spec, 1);
    context.api.addRun(makeRunRecord({ id: "run-q", agentId: "support-triage" }));
    await context.store.getState().openRun("run-q");
    expect(context.store.getState()).toMatchObject({ mode: "live", status: "queued" });
    await context.store.getState().cancelRun();
    expect(context.api.calls).toContain("cancelRun run-q");
    expect(context.store.getState()).toMatchObject({ mode: "replay", status: "cancelled" });
  });

  it("starts a run and opens it", async () => {
    const context = setup();
    context.api.addVersion(getRunFixture("support-triage").spec, 1);
    const runId = await context.store
      .getState()
      .startRun({ agentId: "support-triage", query: "My invoice is wrong" });
    expect(runId).toBe("run-new-1");
    expect(context.store.getState()).toMatchObject({ mode: "live", runId: "run-new-1" });
    expect(context.transport.subscribeCalls).toEqual([{ runId: "run-new-1", afterSeq: 0 }]);
    // the designer runs the latest save, not what production serves outside callers
    expect(context.api.startRequests[0]).toEqual({
      agentId: "support-triage",
      query: "My invoice is wrong",
      channel: "latest",
    });
  });

  it("runs the version or channel asked for instead of the latest save", async () => {
    const context = setup();
    context.api.addVersion(getRunFixture("support-triage").spec, 1);
    await context.store.getState().startRun({ agentId: "support-triage", query: "q", agentVersion: 1 });
    await context.store.getState().startRun({ agentId: "support-triage", query: "q", channel: "staging" });
    expect(context.api.startRequests).toEqual([
      { agentId: "support-triage", query: "q", agentVersion: 1 },
      { agentId: "support-triage", query: "q", channel: "staging" },
    ]);
  });

  it("says why a run cannot be opened or started", async () => {
    const context = setup();
    await context.store.getState().openRun("run-missing");
    expect(context.store.getState().error).toMatchObject({
      kind: "load",
      message: 'Run "run-missing" does not exist.',
    });
    context.api.startRun = async () => {
      throw new ApiError("validation_failed", "query is empty", 400);
    };
    expect(await context.store.getState().startRun({ agentId: "a", query: "" })).toBeNull();
    expect(context.store.getState().error).toEqual({ kind: "start", message: "query is empty" });
  });

  it("ignores what an older open finds out after a newer one", async () => {
    const context = setup();
    const first = addFixture(context, "support-triage", { stored: 10 });
    const second = addFixture(context, "sharded-research", { stored: 10 });
    const opening = context.store.getState().openRun(first.runId);
    await context.store.getState().openRun(second.runId);
    await opening;
    expect(context.store.getState().runId).toBe(second.runId);
    expect(context.store.getState().spec?.id).toBe("sharded-research");
    expect(context.transport.getSubscriptions().map((subscription) => subscription.runId)).toEqual([
      second.runId,
    ]);
  });

  it("closes the run: no subscription, back to editing", async () => {
    const context = setup();
    const { runId } = addFixture(context, "support-triage", { stored: 10 });
    await context.store.getState().openRun(runId);
    context.store.getState().closeRun();
    expect(context.store.getState()).toMatchObject({ mode: "edit", runId: null, view: null });
    expect(context.transport.getSubscriptions()).toEqual([]);
  });

  it("follows the connection", () => {
    const context = setup();
    expect(context.store.getState().connection).toBe("connected");
    context.transport.disconnect();
    expect(context.store.getState().connection).toBe("disconnected");
  });
});

describe("createRunStore: approvals", () => {
  it("answers the pause with its resume token", async () => {
    const context = setup();
    const { runId } = addFixture(context, "email-approval", { stored: 28, status: "paused" });
    await context.store.getState().openRun(runId);
    const result = await context.store
      .getState()
      .resume({ decision: "edit", args: { subject: "New" }, userInput: "shorter" });
    expect(result).toEqual({ ok: true });
    expect(context.api.calls).toContain(`resumeRun ${runId} token-2 edit`);
  });

  it("tells a second answer that the pause was already answered, and refreshes the run", async () => {
    const context = setup();
    const { runId, rest } = addFixture(context, "email-approval", { stored: 28, status: "paused" });
    await context.store.getState().openRun(runId);
    const answered = makeRunRecord({ id: runId, agentId: "email-approval", status: "running", lastSeq: 30 });
    context.api.nextResumeError = new ApiError("invalid_state", "not paused", 409, {
      reason: "already_answered",
      status: "running",
      run: answered,
    });
    context.transport.disconnect();
    context.transport.pushEvents(rest.slice(0, 2));
    const result = await context.store.getState().resume({ decision: "approve" });
    expect(result).toEqual({
      ok: false,
      kind: "already_answered",
      message: "This pause was already answered by someone else.",
    });
    expect(context.store.getState().error?.kind).toBe("already_answered");
    expect(context.store.getState().run?.status).toBe("running");
    context.runFrames();
    expect(context.store.getState().view).toMatchObject({ lastSeq: 30, status: "running", pause: null });
  });

  it("refuses to answer when nothing waits", async () => {
    const context = setup();
    const result = await context.store.getState().resume({ decision: "approve" });
    expect(result).toMatchObject({ ok: false, kind: "resume" });
  });
});

describe("createRunStore: replay", () => {
  it("opens a finished run at its end and moves through it", async () => {
    const context = setup();
    const { runId, events } = addFixture(context, "email-approval", { status: "finished" });
    await context.store.getState().openRun(runId);
    const state = context.store.getState();
    expect(state).toMatchObject({ mode: "replay", status: "finished" });
    expect(state.replay).toMatchObject({ position: 55, length: 55, playing: false, speed: 1 });
    expect(state.replay.index?.length).toBe(55);
    expect(context.transport.subscribeCalls).toEqual([]);
    state.seek(28);
    expect(context.store.getState().view?.status).toBe("paused");
    // the shown status is the replayed one inside the run, the server's at its end
    expect(context.store.getState().status).toBe("paused");
    expect(context.store.getState().replay.position).toBe(28);
    state.step(1);
    expect(context.store.getState().view?.lastSeq).toBe(29);
    state.step(-5);
    expect(context.store.getState().replay.position).toBe(24);
    state.seek(events.length + 100);
    expect(context.store.getState().replay.position).toBe(events.length);
    expect(context.store.getState().status).toBe("finished");
  });

  it("plays on animation frames at the chosen speed, and stops at the end", async () => {
    const context = setup();
    const { runId } = addFixture(context, "support-triage", { status: "finished" });
    await context.store.getState().openRun(runId);
    const { play, setSpeed } = context.store.getState();
    play();
    expect(context.store.getState().replay).toMatchObject({ position: 0, playing: true });
    context.runFrames(16);
    const slow = context.store.getState().replay.position;
    setSpeed(8);
    context.runFrames(200);
    expect(context.store.getState().replay.position).toBeGreaterThan(slow);
    expect(context.store.getState().replay.speed).toBe(8);
    context.store.getState().pause();
    const paused = context.store.getState().replay.position;
    context.runFrames(200);
    expect(context.store.getState().replay).toMatchObject({ position: paused, playing: false });
    context.store.getState().play();
    for (let frame = 0; frame < 500 && context.store.getState().replay.playing; frame += 1)
      context.runFrames(250);
    expect(context.store.getState().replay).toMatchObject({ position: 53, playing: false });
    expect(context.store.getState().view?.answerDone).toBe(true);
  });
});

describe("createRunStore: the agent's runs", () => {
  it("lists the agent's runs newest first and keeps the list live", async () => {
    const context = setup();
    context.api.addRun(
      makeRunRecord({ id: "old", agentId: "a", status: "finished", createdAt: "2025-01-01" }),
    );
    context.api.addRun(
      makeRunRecord({ id: "newer", agentId: "a", status: "failed", createdAt: "2025-01-03" }),
    );
    context.api.addRun(makeRunRecord({ id: "other", agentId: "b", createdAt: "2025-01-02" }));
    await context.store.getState().watchAgent("a");
    expect(context.store.getState().runs.map((run) => run.id)).toEqual(["newer", "old"]);
    expect(context.store.getState().runsLoaded).toBe(true);
    // as the server does: change the run, then tell its watchers
    const update = (run: ReturnType<typeof makeRunRecord>) => {
      context.api.runs.set(run.id, run);
      context.transport.pushRunUpdated(run);
    };
    update(makeRunRecord({ id: "cli", agentId: "a", createdAt: "2025-01-04" }));
    update(makeRunRecord({ id: "old", agentId: "a", status: "cancelled", createdAt: "2025-01-01" }));
    update(makeRunRecord({ id: "b-run", agentId: "b" }));
    expect(context.store.getState().runs.map((run) => `${run.id}:${run.status}`)).toEqual([
      "cli:queued",
      "newer:failed",
      "old:cancelled",
    ]);
    await context.store.getState().setStatusFilter(["finished", "failed"]);
    expect(context.store.getState().runs.map((run) => run.id)).toEqual(["newer"]);
    update(makeRunRecord({ id: "cli", agentId: "a", status: "finished", createdAt: "2025-01-04" }));
    expect(context.store.getState().runs.map((run) => run.id)).toEqual(["cli", "newer"]);
    await context.store.getState().watchAgent("b");
    expect(context.transport.getWatchedAgents()).toEqual(["b"]);
  });

  it("keeps a run update that arrives while the list loads", async () => {
    const context = setup();
    const listRuns = context.api.listRuns.bind(context.api);
    context.api.listRuns = async (options) => {
      const runs = await listRuns(options);
      context.transport.pushRunUpdated(makeRunRecord({ id: "late", agentId: "a", createdAt: "2025-02-01" }));
      return runs;
    };
    await context.store.getState().watchAgent("a");
    expect(context.store.getState().runs.map((run) => run.id)).toEqual(["late"]);
  });

  it("updates the open run's record from run updates", async () => {
    const context = setup();
    const { runId } = addFixture(context, "email-approval", { stored: 28, status: "paused" });
    await context.store.getState().watchAgent("email-approval");
    await context.store.getState().openRun(runId);
    context.transport.pushRunUpdated(
      makeRunRecord({ id: runId, agentId: "email-approval", status: "queued", lastSeq: 28 }),
    );
    expect(context.store.getState().status).toBe("queued");
  });
});

describe("createRunStore: compare", () => {
  it("loads two runs side by side and goes back to where it was", async () => {
    const context = setup();
    const left = addFixture(context, "support-triage", { status: "finished" });
    const right = addFixture(context, "parallel-failure", { status: "finished" });
    await context.store.getState().openRun(left.runId);
    await context.store.getState().openCompare(left.runId, right.runId);
    const { compare, mode } = context.store.getState();
    expect(mode).toBe("compare");
    expect(compare).toMatchObject({ loading: false, leftRunId: left.runId, rightRunId: right.runId });
    expect(compare?.comparison?.divergesAt).toBe(0);
    expect(compare?.right?.view.finish?.reason).toBe("budget_exhausted");
    context.store.getState().closeCompare();
    expect(context.store.getState()).toMatchObject({ mode: "replay", compare: null, runId: left.runId });
  });

  it("says when a run to compare cannot be loaded", async () => {
    const context = setup();
    await context.store.getState().openCompare("nope", "nope-2");
    expect(context.store.getState().error?.kind).toBe("compare");
    expect(context.store.getState().compare?.loading).toBe(false);
    context.store.getState().closeCompare();
    expect(context.store.getState().mode).toBe("edit");
  });
});

describe("run store selectors", () => {
  it("give a node or edge its own slice, unchanged when others change", async () => {
    const context = setup();
    const { runId, rest } = addFixture(context, "support-triage", { stored: 20 });
    await context.store.getState().openRun(runId);
    const state = context.store.getState();
    const triage = selectNodeRunState(state, "triage");
    expect(triage?.state).toBe("succeeded");
    expect(selectNodeRunState(state, "summarize")).toBeNull();
    expect(selectEdgeRunState(state, "triage-retrieve")?.count).toBe(1);
    context.transport.pushEvents(rest.slice(0, -3) as RunEvent[]);
    await settle();
    context.runFrames();
    const later = context.store.getState();
    expect(selectNodeRunState(later, "summarize")?.state).toBe("succeeded");
    expect(selectNodeRunState(later, "triage")).toBe(triage);
    context.store.getState().closeRun();
    expect(selectNodeRunState(context.store.getState(), "triage")).toBeNull();
  });
});
