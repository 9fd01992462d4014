import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { deepFreeze } from "../../testing/deep-freeze.js";
import { createEventFactory, makeLongRun } from "../../testing/make-run-events.js";
import { getRunFixture } from "../../testing/run-fixtures.js";
import { applyRunEvent, applyRunEvents, createRunView } from "./apply-run-event.js";
import type { RunView } from "./run-view.js";

function fold(name: Parameters<typeof getRunFixture>[0], until = Infinity): RunView {
  const { spec, events } = getRunFixture(name);
  return applyRunEvents(
    createRunView(events[0]?.runId ?? "run"),
    events.filter((event) => event.seq <= until),
    { spec },
  );
}

const LLM = { provider: "openai", model: "gpt-test", offline: false };
const PAYLOAD = { artifacts: {}, sources: [], suggested_actions: [], requires_followup: false };
const METADATA = {
  steps: 1,
  llmCalls: 1,
  autoSeqSavedCalls: 0,
  usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
  durationMs: 5,
};

describe("applyRunEvents on recorded runs", () => {
  it("follows LLM-chosen tools along order edges to the answer", () => {
    const view = fold("support-triage");
    expect(view.status).toBe("finished");
    expect(view.query).toBe("My invoice is wrong");
    expect(view.llm).toEqual({ provider: "offline", model: "offline", offline: true });
    for (const tool of ["triage", "retrieve_docs", "summarize"]) {
      expect(view.nodes[tool]).toMatchObject({ state: "succeeded", calls: 1, failures: 0, active: 0 });
    }
    expect(view.nodes.summarize?.totalMs).toBe(257);
    expect(
      view.transitions.map(({ from, to, provenance, edgeId }) => ({ from, to, provenance, edgeId })),
    ).toEqual([
      { from: null, to: "triage", provenance: "llm", edgeId: null },
      { from: "triage", to: "retrieve_docs", provenance: "llm", edgeId: "triage-retrieve" },
      { from: "retrieve_docs", to: "summarize", provenance: "llm", edgeId: "retrieve-summarize" },
    ]);
    expect(view.edges["triage-retrieve"]).toEqual({ count: 1, last: view.transitions[1] });
    expect(view.answer).toMatch(/^About "My invoice is wrong"/);
    expect(view.answerDone).toBe(true);
    expect(view.finish?.reason).toBe("answer_complete");
    expect(view.totals).toMatchObject({ llmCalls: 4, hops: 3, steps: 3, autoSeqSaved: 0 });
    expect(view.totals.promptTokens).toBe(804 + 840 + 941 + 1086);
    expect(view.steps.map((step) => step.tools)).toEqual([["triage"], ["retrieve_docs"], ["summarize"], []]);
    expect(view.steps[0]).toMatchObject({ llmCalls: 1, tokens: 819, llmMs: 14, source: "llm" });
    const kinds = new Set(view.timeline.map((entry) => entry.kind));
    for (const kind of ["start", "reflect", "act", "obs", "llm", "tool", "action", "finish"]) {
      expect(kinds).toContain(kind);
    }
    expect(view.timeline.find((entry) => entry.kind === "act")?.tool).toBe("triage");
    expect(view.callOrder).toEqual(["step-0", "step-1", "step-2"]);
    expect(view.calls["step-1"]).toMatchObject({
      tool: "retrieve_docs",
      status: "succeeded",
      durationMs: 407,
    });
  });

  it("draws auto-seq steps on auto-seq edges and counts the LLM calls they saved", () => {
    const view = fold("document-pipeline");
    const autoSeq = view.transitions.filter((transition) => transition.provenance === "auto_seq");
    expect(autoSeq.map((transition) => transition.edgeId)).toEqual([
      "triage-init",
      "init-parse",
      "parse-extract",
      "extract-summary",
    ]);
    expect(view.totals.autoSeqSaved).toBe(4);
    expect(view.timeline.filter((entry) => entry.kind === "auto_seq")).toHaveLength(4);
    expect(view.steps.map((step) => step.source)).toEqual([
      "llm",
      "auto_seq",
      "auto_seq",
      "auto_seq",
      "auto_seq",
      "llm",
    ]);
  });

  it("counts the auto-seq executions as they happen, before the run's own total", () => {
    expect(fold("document-pipeline", 36).totals.autoSeqSaved).toBe(3);
  });

  it("shows parallel branches queued, running and done, and the join with its edge", () => {
    const started = fold("sharded-research", 9);
    expect(started.nodes.search_web?.state).toBe("queued");
    expect(started.nodes.merge_results?.state).toBe("queued");
    expect(started.parallels["parallel-0"]).toMatchObject({
      total: 3,
      done: 0,
      joinStatus: "pending",
      groupId: "sources",
    });
    const running = fold("sharded-research", 13);
    expect(running.nodes.search_web?.state).toBe("succeeded");
    expect(running.nodes.search_news?.state).toBe("running");
    expect(running.parallels["parallel-0"]?.done).toBe(1);
    const view = fold("sharded-research");
    expect(view.parallels["parallel-0"]).toMatchObject({
      done: 3,
      failed: 0,
      joinStatus: "ok",
      finished: true,
    });
    const fanOut = view.transitions.filter((transition) => transition.provenance === "parallel");
    expect(fanOut.map((transition) => [transition.from, transition.to])).toEqual([
      [null, "search_web"],
      [null, "search_papers"],
      [null, "search_news"],
    ]);
    const joins = view.transitions.filter((transition) => transition.provenance === "join");
    expect(joins.map((transition) => [transition.from, transition.edgeId])).toEqual([
      ["search_web", "join:sources"],
      ["search_papers", "join:sources"],
      ["search_news", "join:sources"],
    ]);
    expect(view.transitions.at(-1)).toMatchObject({
      from: "merge_results",
      to: "write_brief",
      edgeId: "merge-brief",
    });
    expect(view.totals.hops).toBe(5);
    expect(view.edges["join:sources"]).toMatchObject({
      count: 3,
      last: { from: "search_news", provenance: "join" },
    });
    expect(view.edges["merge-brief"]?.count).toBe(1);
    expect(Object.keys(view.edges).sort()).toEqual(["join:sources", "merge-brief"]);
  });

  it("says when a join failed, with its message, in the parallel and the finish", () => {
    const events = createEventFactory();
    const view = applyRunEvents(createRunView("run-1"), [
      events.next("parallel_start", {
        parallelId: "parallel-0",
        steps: [{ node: "a", args: {} }],
        maxParallel: 1,
        join: { node: "merge" },
      }),
      events.next("tool_start", {
        tool: "a",
        callId: "parallel-0:0",
        args: {},
        attempt: 1,
        parallelId: "parallel-0",
        branch: 0,
      }),
      events.next("tool_end", {
        tool: "a",
        callId: "parallel-0:0",
        observation: {},
        durationMs: 1,
        parallelId: "parallel-0",
        branch: 0,
      }),
      events.next("parallel_end", {
        parallelId: "parallel-0",
        successCount: 1,
        failureCount: 0,
        join: {
          status: "error",
          node: "merge",
          reason: "invalid_join_args",
          message: "results: expected array",
        },
        durationMs: 3,
      }),
      events.next("run_finished", {
        reason: "answer_complete",
        payload: { answer: "partial", ...PAYLOAD },
        metadata: {
          ...METADATA,
          failedJoins: [
            {
              step: 0,
              node: "merge",
              errorCode: "invalid_join_args",
              message: "results: expected array",
              recovered: false,
            },
          ],
        },
      }),
    ]);
    expect(view.nodes.merge?.state).toBe("failed");
    expect(view.parallels["parallel-0"]).toMatchObject({
      joinStatus: "error",
      joinMessage: "results: expected array",
    });
    expect(view.timeline.find((entry) => entry.title === "Parallel done")).toMatchObject({
      tone: "bad",
      detail: "1 succeeded, 0 failed; join error (results: expected array)",
    });
    expect(view.finish?.failedJoins).toEqual([expect.objectContaining({ node: "merge", recovered: false })]);
  });

  it("marks the join skipped and the failed branch when a branch fails", () => {
    const view = fold("parallel-failure");
    expect(view.nodes.left?.state).toBe("succeeded");
    expect(view.nodes.right).toMatchObject({ state: "failed", failures: 1 });
    expect(view.nodes.merge?.state).toBe("skipped");
    expect(view.parallels["parallel-1"]).toMatchObject({
      done: 2,
      failed: 1,
      joinStatus: "skipped",
      joinReason: "branch_failures",
    });
    expect(view.calls["parallel-1:1"]?.failure).toMatchObject({ code: "tool_failed", node: "right" });
    // after a parallel without a join that ran, the next tool comes from the branches that ran
    const next = view.transitions.filter((transition) => transition.to === "finish");
    expect(next.map((transition) => transition.from)).toEqual(["left", "right"]);
    expect(view.timeline.some((entry) => entry.kind === "constraint" && entry.tone === "bad")).toBe(true);
    expect(view.finish?.reason).toBe("budget_exhausted");
    expect(view.status).toBe("finished");
  });

  it("pauses on the tool that needs approval and returns it to its state on resume", () => {
    const paused = fold("email-approval", 28);
    expect(paused.status).toBe("paused");
    expect(paused.nodes.send_email?.state).toBe("awaiting_approval");
    expect(paused.pause).toMatchObject({
      reason: "approval_required",
      resumeToken: "token-2",
      tool: "send_email",
      callId: null,
      nodeStateBefore: "idle",
    });
    expect(paused.pause?.args).toMatchObject({ subject: "Quick update" });
    expect(paused.timeline.at(-1)).toMatchObject({ kind: "pause", tool: "send_email", tone: "warn" });
    const resumed = fold("email-approval", 29);
    expect(resumed.status).toBe("running");
    expect(resumed.pause).toBeNull();
    expect(resumed.nodes.send_email?.state).toBe("idle");
    const view = fold("email-approval");
    expect(view.nodes.send_email).toMatchObject({ state: "succeeded", calls: 1 });
    expect(view.calls["step-2"]?.args).toMatchObject({ subject: "Edited subject" });
    expect(view.transitions.at(-1)).toMatchObject({
      from: "draft_email",
      to: "send_email",
      provenance: "resume",
      edgeId: "draft-send",
    });
    expect(view.status).toBe("finished");
  });

  it("shows retries, failures, repairs, todos, thinking and costs of a scripted run", () => {
    const retrying = fold("scripted", 15);
    expect(retrying.nodes.alpha).toMatchObject({ state: "retrying", attempt: 2 });
    expect(retrying.calls["step-1"]).toMatchObject({ status: "retrying", attempt: 2 });
    expect(fold("scripted", 16).nodes.alpha).toMatchObject({ state: "retrying", attempt: 2 });
    expect(fold("scripted", 1_000).thinking).toBe("Done now.");
    const view = fold("scripted");
    expect(view.nodes.alpha).toMatchObject({ state: "succeeded", calls: 1, failures: 0 });
    expect(view.nodes.beta).toMatchObject({ state: "failed", calls: 1, failures: 1 });
    expect(view.calls["step-2"]?.failure).toMatchObject({ code: "tool_failed" });
    expect(view.todos.map((todo) => todo.content)).toEqual(["Call alpha", "Answer"]);
    expect(view.thinkingDone).toBe(true);
    expect(view.answer).toBe("The answer is hello, streamed in pieces.");
    expect(view.totals.llmCalls).toBe(6);
    expect(view.totals.costUsd).toBeCloseTo(6 * 0.0015);
    const kinds = view.timeline.map((entry) => entry.kind);
    for (const kind of ["retry", "repair", "tool_error", "todos", "plan"]) expect(kinds).toContain(kind);
    // beta → gamma was chosen by the LLM; the auto-seq edge between them is still the edge it took
    expect(view.transitions.at(-1)).toMatchObject({
      from: "beta",
      to: "gamma",
      provenance: "llm",
      edgeId: "beta-gamma",
    });
    expect(view.steps.find((step) => step.step === 2)).toMatchObject({ llmCalls: 2 });
  });

  it("streams the answer chunk by chunk", () => {
    const { events } = getRunFixture("support-triage");
    let view = createRunView("run");
    const answers: string[] = [];
    for (const event of events) {
      view = applyRunEvent(view, event);
      answers.push(view.answer);
    }
    const growing = answers.filter((answer, index) => answer !== answers[index - 1]);
    expect(growing.length).toBeGreaterThan(10);
  });
});

describe("applyRunEvents", () => {
  it("shows what the planner salvaged from a reply as a repair entry", () => {
    const events = createEventFactory();
    const view = applyRunEvents(createRunView("run-1"), [
      events.next("action_salvaged", {
        rule: "fenced",
        detail: "the action was read from a code fence",
        node: "search",
        action_seq: 0,
      }),
    ]);
    expect(view.timeline).toEqual([
      expect.objectContaining({
        kind: "repair",
        title: "Salvaged: fenced",
        detail: "the action was read from a code fence",
        tool: "search",
        tone: "warn",
      }),
    ]);
  });

  it("starts a new answer and thinking for each action_seq", () => {
    const events = createEventFactory();
    const chunk = (channel: "answer" | "thinking", text: string, actionSeq: number, done = false) =>
      events.next("llm_stream_chunk", { text, done, phase: channel, channel, action_seq: actionSeq });
    let view = applyRunEvents(createRunView("run-1"), [
      chunk("thinking", "hmm", 0),
      chunk("answer", "first", 0),
      chunk("answer", " try", 0),
    ]);
    expect(view).toMatchObject({ answer: "first try", thinking: "hmm", answerDone: false });
    view = applyRunEvents(view, [chunk("answer", "", 0, true)]);
    expect(view.answerDone).toBe(true);
    view = applyRunEvents(view, [chunk("answer", "second", 1), chunk("thinking", "again", 1)]);
    expect(view).toMatchObject({
      answer: "second",
      thinking: "again",
      answerDone: false,
      thinkingDone: false,
    });
  });

  it("never mutates its input, and shares what a batch did not touch", () => {
    const { spec, events } = getRunFixture("sharded-research");
    const half = deepFreeze(applyRunEvents(createRunView("run"), events.slice(0, 15), { spec }));
    const snapshot = JSON.stringify(half);
    deepFreeze(events);
    const full = applyRunEvents(half, events.slice(15), { spec });
    expect(JSON.stringify(half)).toBe(snapshot);
    expect(full.nodes.write_brief?.state).toBe("succeeded");
    expect(full.nodes.search_web).toBe(half.nodes.search_web);
    const chunk = applyRunEvents(full, [
      {
        ...events.at(-1)!,
        seq: full.lastSeq + 1,
        type: "reasoning",
        data: { phase: "reflect", summary: "x" },
      },
    ]);
    expect(chunk.nodes).toBe(full.nodes);
    expect(chunk.calls).toBe(full.calls);
    expect(chunk.parallels).toBe(full.parallels);
  });

  it("ignores events at or below lastSeq (duplicates and replays)", () => {
    const { spec, events } = getRunFixture("support-triage");
    const view = applyRunEvents(createRunView("run"), events, { spec });
    expect(applyRunEvents(view, events, { spec })).toBe(view);
    const doubled = applyRunEvents(createRunView("run"), [...events.slice(0, 20), ...events.slice(10)], {
      spec,
    });
    expect(doubled).toEqual(view);
  });

  it("folds the same view in one batch, event by event, or in any chunks", () => {
    for (const name of ["sharded-research", "email-approval", "scripted", "parallel-failure"] as const) {
      const { spec, events } = getRunFixture(name);
      const batch = applyRunEvents(createRunView("run"), events, { spec });
      let single = createRunView("run");
      for (const event of events) single = applyRunEvent(single, event, { spec });
      let chunked = createRunView("run");
      for (let index = 0; index < events.length; index += 7)
        chunked = applyRunEvents(chunked, events.slice(index, index + 7), { spec });
      expect(single).toEqual(batch);
      expect(chunked).toEqual(batch);
    }
  });

  it("folds a run of 10,000 events into the right totals (its speed is measured by npm run bench -- designer)", () => {
    const events = makeLongRun({ steps: 1_200 });
    expect(events.length).toBeGreaterThan(10_000);
    const view = applyRunEvents(createRunView("run-long"), events);
    expect(view.totals).toMatchObject({ hops: 1_200, llmCalls: 1_200, steps: 1_200 });
    expect(view.status).toBe("finished");
  });

  it("goes queued → running → cancelled, and skips what was waiting", () => {
    const events = createEventFactory();
    let view = createRunView("run-1");
    expect(view.status).toBe("queued");
    view = applyRunEvents(view, [
      events.next("run_started", { query: "q", llm: LLM, tools: ["a", "b"] }),
      events.next("parallel_start", {
        parallelId: "parallel-0",
        steps: [
          { node: "a", args: {} },
          { node: "b", args: {} },
        ],
        maxParallel: 1,
      }),
      events.next("tool_start", {
        tool: "a",
        callId: "parallel-0:0",
        args: {},
        attempt: 1,
        parallelId: "parallel-0",
        branch: 0,
      }),
    ]);
    expect(view.status).toBe("running");
    expect(view.nodes.b?.state).toBe("queued");
    view = applyRunEvent(
      view,
      events.next("run_finished", {
        reason: "cancelled",
        payload: { answer: "stopped", ...PAYLOAD },
        metadata: METADATA,
      }),
    );
    expect(view.status).toBe("cancelled");
    expect(view.nodes.a?.state).toBe("skipped");
    expect(view.nodes.b?.state).toBe("skipped");
    expect(view.calls["parallel-0:0"]?.status).toBe("skipped");
    expect(view.finish).toMatchObject({ reason: "cancelled", answer: "stopped" });
  });

  it("keeps a tool that paused itself waiting, and runs the same call again when approved", () => {
    const events = createEventFactory();
    let view = applyRunEvents(createRunView("run-1"), [
      events.next("run_started", { query: "q", llm: LLM, tools: ["ask"] }),
      events.next("tool_start", { tool: "ask", callId: "step-0", args: { q: 1 }, attempt: 1, source: "llm" }),
      events.next("pause", {
        reason: "await_input",
        payload: { tool: "ask", args: { q: 1 }, prompt: "?" },
        resumeToken: "t",
      }),
    ]);
    expect(view.nodes.ask).toMatchObject({ state: "awaiting_approval", active: 0 });
    expect(view.pause).toMatchObject({ callId: "step-0", tool: "ask", reason: "await_input" });
    expect(view.calls["step-0"]?.status).toBe("awaiting_approval");
    view = applyRunEvents(view, [
      events.next("resumed", { decision: "approve", reason: "await_input" }),
      events.next("step_start", { source: "resume" }),
      events.next("tool_start", {
        tool: "ask",
        callId: "step-0",
        args: { q: 1 },
        attempt: 1,
        source: "resume",
      }),
    ]);
    expect(view.nodes.ask).toMatchObject({ state: "running", calls: 1, active: 1 });
    view = applyRunEvent(
      view,
      events.next("tool_end", { tool: "ask", callId: "step-0", observation: {}, durationMs: 3 }),
    );
    expect(view.nodes.ask).toMatchObject({ state: "succeeded", calls: 1, active: 0 });
    expect(view.totals.hops).toBe(1);
  });

  it("shows a self-paused call that is rejected as rejected, with the note typed with the decision", () => {
    const events = createEventFactory();
    const view = applyRunEvents(createRunView("run-1"), [
      events.next("tool_start", { tool: "ask", callId: "step-0", args: {}, attempt: 1 }),
      events.next("pause", { reason: "await_input", payload: { tool: "ask", args: {} }, resumeToken: "t" }),
      events.next("resumed", { decision: "reject", reason: "await_input", note: "Not this one" }),
    ]);
    expect(view.nodes.ask?.state).toBe("rejected");
    expect(view.calls["step-0"]?.status).toBe("rejected");
    expect(view.timeline.at(-1)).toMatchObject({
      kind: "resumed",
      status: "rejected",
      title: "Rejected: ask",
      tool: "ask",
      note: "Not this one",
      tone: "bad",
    });
  });

  it("shows an approval rejected before its call started as rejected, and an approval as approved", () => {
    const events = createEventFactory();
    const pause = (token: string) =>
      events.next("pause", {
        reason: "approval_required",
        payload: { tool: "send", args: { to: "x" } },
        resumeToken: token,
      });
    const rejected = applyRunEvents(createRunView("run-1"), [
      pause("t1"),
      events.next("resumed", { decision: "reject", reason: "approval_required" }),
    ]);
    expect(rejected.nodes.send?.state).toBe("rejected");
    expect(rejected.timeline.at(-1)).toMatchObject({ status: "rejected", title: "Rejected: send" });
    expect(rejected.timeline.at(-1)?.note).toBeUndefined();
    const approved = applyRunEvents(rejected, [
      pause("t2"),
      events.next("resumed", { decision: "approve", reason: "approval_required", note: "ok, send it" }),
    ]);
    expect(approved.timeline.at(-1)).toMatchObject({
      status: "approved",
      title: "Approved: send",
      note: "ok, send it",
    });
    const running = applyRunEvents(approved, [
      events.next("tool_start", { tool: "send", callId: "step-1", args: {}, attempt: 1 }),
    ]);
    expect(running.nodes.send?.state).toBe("running");
  });

  it("records failures, interruptions and background tasks", () => {
    const events = createEventFactory();
    const failed = applyRunEvents(createRunView("run-1"), [
      events.next("tool_start", { tool: "a", callId: "step-0", args: {}, attempt: 1 }),
      events.next("task_spawned", {
        taskId: "t1",
        name: "research",
        mode: "subagent",
        mergeStrategy: "APPEND",
      }),
      events.next("task_update", { taskId: "t1", status: "completed", result: { ok: true } }),
      events.next("run_failed", { error: { code: "internal_error", message: "boom" } }),
    ] as RunEvent[]);
    expect(failed.status).toBe("failed");
    expect(failed.error).toEqual({ code: "internal_error", message: "boom" });
    expect(failed.nodes.a?.state).toBe("failed");
    expect(failed.tasks.t1).toMatchObject({ name: "research", status: "completed", result: { ok: true } });
    expect(failed.timeline.map((entry) => entry.kind)).toEqual(["task", "task", "error"]);
    const interrupted = applyRunEvent(
      createRunView("run-2"),
      events.next("run_interrupted", { message: "server stopped" }),
    );
    expect(interrupted).toMatchObject({ status: "interrupted", error: { code: "interrupted" } });
  });
});
