import { TERMINAL_RUN_STATUSES, type RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/api-error.js";
import { FakeRunTransport } from "../runs/transport/fake-run-transport.js";
import { FakeChatApi } from "../testing/fake-chat-api.js";
import { makeTaskSessionLog } from "../testing/make-session-events.js";
import { getRunFixture } from "../testing/run-fixtures.js";
import { createChatStore } from "./chat-store.js";
import { getChatThread } from "./get-chat-thread.js";
import { getChatTray } from "./get-chat-tray.js";
import { getSendState } from "./get-send-state.js";
import type { ChatStore } from "./chat-store.js";
import { FakeSessionTransport } from "./transport/fake-session-transport.js";

/** Lets the fakes' microtask deliveries and the store's awaits run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function setup() {
  const sessions = new FakeSessionTransport();
  const runs = new FakeRunTransport();
  const api = new FakeChatApi(sessions, runs);
  const store = createChatStore({ api, runs, sessions });
  const thread = () => {
    const { record, turnViews, pendingTurn } = store.getState();
    return getChatThread({ record, turnViews, pendingTurn });
  };
  return { sessions, runs, api, store, thread };
}

/** What the composer decides from the store and the thread. */
function getSend(store: ChatStore, query: string) {
  const { agentId, record, pendingTurn, turnViews, sending, loading } = store.getState();
  const lastTurn = getChatThread({ record, turnViews, pendingTurn }).at(-1) ?? null;
  return getSendState({ agentId, closed: record?.status === "closed", lastTurn, sending, loading, query });
}

/** A recorded run's events as the run `runId`. */
const asRun = (events: readonly RunEvent[], runId: string) => events.map((event) => ({ ...event, runId }));

describe("chat store", () => {
  it("opens a new chat on the channel or version it is given, the latest save without one", async () => {
    const { api, store } = setup();
    const { spec } = getRunFixture("support-triage");
    api.addVersion(spec, 1);
    await store.getState().watchAgent(spec.id);
    store.getState().newChat();
    await store.getState().send("first", { channel: "production" });
    store.getState().newChat();
    await store.getState().send("second", { agentVersion: 1 });
    expect(api.sessionRequests).toEqual([
      { agentId: spec.id, channel: "production" },
      { agentId: spec.id, agentVersion: 1 },
    ]);
  });

  it("opens a session with a new chat's first message, streams the turn and follows it until its run ends", async () => {
    const { api, runs, store, thread } = setup();
    const { spec, events } = getRunFixture("support-triage");
    api.addVersion(spec, 1);
    await store.getState().watchAgent(spec.id);
    expect(store.getState()).toMatchObject({ sessions: [], sessionsLoaded: true });
    store.getState().newChat();
    expect(store.getState().drafting).toBe(true);

    const runId = await store.getState().send("  My invoice shows a duplicate charge  ");
    await settle();
    expect(api.calls.filter((call) => !call.startsWith("listSessions"))).toEqual([
      `createSession ${spec.id}`,
      "getSession ses_fake1",
      `getVersion ${spec.id} 1`,
      "startTurn ses_fake1 My invoice shows a duplicate charge",
    ]);
    // the designer's chat pins the latest save, not what production serves outside callers
    expect(api.sessionRequests).toEqual([{ agentId: spec.id, channel: "latest" }]);
    const state = store.getState();
    expect(state).toMatchObject({ sessionId: "ses_fake1", drafting: false, pendingTurn: null });
    expect(state.record?.title).toBe("My invoice shows a duplicate charge");
    expect(state.sessions.map((session) => session.id)).toEqual(["ses_fake1"]);
    expect(state.spec?.id).toBe(spec.id);
    expect(thread()).toMatchObject([{ turn: 1, runId, status: "running", answer: "" }]);
    expect(getSend(store, "next")).toMatchObject({ ok: false, block: "running" });

    // the run streams: the thread shows the answer as it is written, then the run's end
    const run = asRun(events, runId!);
    const firstAnswerChunk = run.findIndex(
      (event) => event.type === "llm_stream_chunk" && event.data.channel === "answer",
    );
    api.pushRunEvents(run.slice(0, firstAnswerChunk + 1));
    await settle();
    expect(thread()[0]).toMatchObject({ status: "running", streaming: true });
    expect(thread()[0]!.answer).not.toBe("");
    api.pushRunEvents(run.slice(firstAnswerChunk + 1));
    await settle();
    expect(TERMINAL_RUN_STATUSES.has(thread()[0]!.status)).toBe(true);
    expect(runs.getSubscriptions()).toEqual([]);

    // the session logs the end: its answer is the thread's, and Send is free again
    api.append("ses_fake1", {
      type: "turn_ended",
      data: { runId: runId!, turn: 1, status: "finished", answer: "The charge is reversed in 5 days." },
    });
    await settle();
    expect(thread()[0]).toMatchObject({ status: "finished", answer: "The charge is reversed in 5 days." });
    expect(getSend(store, "next")).toEqual({ ok: true });
  });

  it("refuses a second turn while one runs with the server's reason, and a turn on a closed chat", async () => {
    const { api, store } = setup();
    await store.getState().watchAgent("agent-a");
    store.getState().newChat();
    await store.getState().send("first");
    // another page of the same chat sends before this one has heard of turn 1
    expect(await store.getState().send("second")).toBeNull();
    expect(store.getState().error).toMatchObject({ kind: "send", reason: "turn_in_progress" });

    await store.getState().closeSession();
    await settle();
    const state = store.getState();
    expect(state.record?.status).toBe("closed");
    expect(getSend(store, "third")).toMatchObject({ ok: false, block: "closed" });
    expect(api.calls).toContain("closeSession ses_fake1");
  });

  it("answers a turn's pause inline, and says so when someone answered it first", async () => {
    const { api, store, thread } = setup();
    const { spec, events } = getRunFixture("email-approval");
    api.addVersion(spec, 1);
    await store.getState().watchAgent(spec.id);
    store.getState().newChat();
    const runId = (await store.getState().send("Email Dana"))!;
    const run = asRun(events, runId);
    api.pushRunEvents(run.slice(0, run.findIndex((event) => event.type === "pause") + 1));
    await settle();
    const [turn] = thread();
    expect(turn).toMatchObject({ status: "paused" });
    expect(turn!.pause?.tool).toBe("send_email");
    expect(getSend(store, "x")).toMatchObject({ ok: false, block: "paused" });

    const token = turn!.pause!.resumeToken;
    expect(await store.getState().resume(runId, { decision: "approve", userInput: "fine" })).toEqual({
      ok: true,
    });
    expect(api.calls.at(-1)).toBe(`resumeRun ${runId} ${token} approve fine`);

    api.nextResumeError = new ApiError("invalid_state", "answered", 409, {
      reason: "already_answered",
      status: "running",
    });
    expect(await store.getState().resume(runId, { decision: "reject" })).toMatchObject({
      ok: false,
      kind: "already_answered",
    });
    expect(store.getState().error).toMatchObject({ kind: "already_answered", reason: "already_answered" });
  });

  it("opens a session from its whole log: tasks, group report and pending merge; a merge is decided once", async () => {
    const { api, runs, store } = setup();
    const head = {
      id: "ses_test1",
      agentId: "research-agent",
      agentVersion: 1,
      createdAt: "2026-01-05T09:00:00Z",
    };
    api.addSession(head, makeTaskSessionLog("ses_test1"));
    await store.getState().watchAgent("research-agent");
    expect(store.getState().sessions.map((session) => [session.id, session.turnCount])).toEqual([
      ["ses_test1", 2],
    ]);

    expect(await store.getState().openSession("ses_test1")).toBe(true);
    await settle();
    const { record, groupReports } = store.getState();
    const tray = getChatTray(record, groupReports);
    expect(tray.groups[0]).toMatchObject({ name: "research", done: 2, total: 2 });
    expect(tray.groups[0]!.report?.report).toBe("all");
    expect(tray.merges.map((merge) => merge.mergeId)).toEqual(["m_research"]);
    // turn 2 is still going: its run is followed; turn 1 has ended and is not
    expect(runs.getSubscriptions().map((subscription) => subscription.runId)).toEqual(["run_turn2"]);

    expect(await store.getState().decideMerge("m_research", "approve", "  looks right ")).toBe(true);
    await settle();
    expect(api.calls.at(-1)).toBe("decideMerge ses_test1 m_research approve looks right");
    expect(store.getState().record?.pendingMerges).toEqual([]);
    // a second answer (another page, a double click) is refused by the server and said so
    expect(await store.getState().decideMerge("m_research", "reject")).toBe(false);
    expect(store.getState().error).toMatchObject({ kind: "merge", reason: "already_answered" });
    expect(store.getState().error?.message).toMatch(/already answered/);
  });

  it("reads an ended turn's thinking from its stored events when asked", async () => {
    const { api, store, thread } = setup();
    const { events } = getRunFixture("scripted");
    const log = makeTaskSessionLog("ses_test1");
    api.addSession(
      { id: "ses_test1", agentId: "a", agentVersion: 1, createdAt: "2026-01-05T09:00:00Z" },
      log,
    );
    api.pushRunEvents(asRun(events, "run_turn1"));
    await store.getState().openSession("ses_test1");
    await settle();
    expect(thread()[0]!.thinking).toBeNull();
    await store.getState().loadTurn("run_turn1");
    expect(thread()[0]!.thinking).not.toBeNull();
    expect(thread()[0]!.thinking!.length).toBeGreaterThan(0);
    // the session's answer stays the thread's
    expect(thread()[0]!.answer).toBe("I started three tasks.");
  });

  it("keeps the agent's list live and leaves an open chat when another agent opens", async () => {
    const { api, sessions, store } = setup();
    api.addSession({ id: "ses_a1", agentId: "agent-a", agentVersion: 1, createdAt: "2026-01-05T09:00:00Z" });
    await store.getState().watchAgent("agent-a");
    await store.getState().openSession("ses_a1");
    const summary = (await api.listSessions())[0]!;
    sessions.pushSessionUpdated({ ...summary, title: "Renamed", updatedAt: "2030-01-01T00:00:00Z" });
    sessions.pushSessionUpdated({ ...summary, id: "ses_b9", agentId: "agent-b" });
    expect(store.getState().sessions.map((session) => session.title)).toEqual(["Renamed"]);

    await store.getState().watchAgent("agent-b");
    expect(store.getState()).toMatchObject({ agentId: "agent-b", sessionId: null, record: null });
    expect(sessions.getWatchedAgents()).toEqual(["agent-b"]);
    expect(sessions.getSubscriptions()).toEqual([]);
  });

  it("says what is wrong when a session cannot be opened", async () => {
    const { store } = setup();
    expect(await store.getState().openSession("ses_missing")).toBe(false);
    expect(store.getState()).toMatchObject({ loading: false, error: { kind: "load" } });
    expect(store.getState().error?.message).toContain("ses_missing");
  });
});
