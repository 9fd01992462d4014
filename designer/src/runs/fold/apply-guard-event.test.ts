import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createReplayIndex } from "../replay/replay-index.js";
import { getGuardSentence, getShieldMark } from "./apply-guard-event.js";
import { applyRunEvents, createRunView } from "./apply-run-event.js";

let seq = 0;
const event = <T extends RunEvent["type"]>(
  type: T,
  data: Extract<RunEvent, { type: T }>["data"],
  step = 0,
): RunEvent => ({ runId: "run-1", seq: (seq += 1), ts: 1_000 + seq, step, type, data }) as RunEvent;

const lookupCall = (step: number) => [
  event("tool_start", { tool: "lookup", callId: `c${step}`, args: { who: "Ana" }, attempt: 1 }, step),
  event("tool_end", { tool: "lookup", callId: `c${step}`, observation: {}, durationMs: 4 }, step),
];
const piiVerdict = (
  step: number,
  findings = [
    { kind: "email", count: 1 },
    { kind: "card", count: 1 },
  ],
) =>
  event(
    "guard_verdict",
    {
      guard: "pii",
      on: "tool_result",
      verdict: "fail",
      action: "redact",
      findings,
      check: "pii",
      tool: "lookup",
      step,
    },
    step,
  );
const finished = (answer: string) =>
  event("run_finished", {
    reason: "answer_complete",
    payload: { answer },
    metadata: { usage: {}, llmCalls: 1, autoSeqSavedCalls: 0 },
  } as Extract<RunEvent, { type: "run_finished" }>["data"]);

describe("guards in the run view", () => {
  it("puts a shield on the tool whose results a guard redacted, adding up what it found, and explains each decision", () => {
    const view = applyRunEvents(createRunView("run-1"), [
      ...lookupCall(0),
      piiVerdict(0),
      ...lookupCall(1),
      piiVerdict(1, [{ kind: "email", count: 2 }]),
    ]);
    expect(view.nodes.lookup?.guards).toEqual([
      expect.objectContaining({
        guard: "pii",
        verdict: "fail",
        action: "redact",
        decisions: 2,
        acted: 2,
        findings: [
          { kind: "email", count: 3 },
          { kind: "card", count: 1 },
        ],
      }),
    ]);
    const lines = view.timeline.filter((entry) => entry.kind === "guard");
    expect(lines.map((line) => [line.title, line.tool, line.tone])).toEqual([
      ["Guard pii redacted 1 email, 1 card in lookup's result", "lookup", "warn"],
      ["Guard pii redacted 2 email in lookup's result", "lookup", "warn"],
    ]);
  });

  it("records a pass without a shield's action, and says it passed", () => {
    const view = applyRunEvents(createRunView("run-1"), [
      ...lookupCall(0),
      event("guard_verdict", {
        guard: "pii",
        on: "tool_result",
        verdict: "pass",
        action: "none",
        findings: [],
        check: "pii",
        tool: "lookup",
      }),
    ]);
    expect(view.nodes.lookup?.guards?.[0]).toMatchObject({ acted: 0, decisions: 1, verdict: "pass" });
    expect(view.timeline.at(-1)).toMatchObject({ title: "Guard pii passed lookup's result", tone: "good" });
  });

  it("holds the answer while output guards check it, until each has decided", () => {
    const checking = [
      event("guard_checking", { on: "output", guards: ["tone", "pii"] }, 1),
      event(
        "guard_verdict",
        { guard: "pii", on: "output", verdict: "pass", action: "none", findings: [], check: "pii" },
        1,
      ),
    ];
    const open = applyRunEvents(createRunView("run-1"), checking);
    expect(open.guardChecking).toMatchObject({ on: "output", guards: ["tone", "pii"], pending: ["tone"] });
    expect(open.timeline.map((entry) => entry.title)).toEqual([
      "Checking the answer before it is shown…",
      "Guard pii passed the answer",
    ]);
    const blocked = applyRunEvents(open, [
      event(
        "guard_verdict",
        {
          guard: "tone",
          on: "output",
          verdict: "fail",
          action: "block",
          findings: [],
          check: "llm",
          message: "The answer promises a refund.",
        },
        1,
      ),
    ]);
    expect(blocked.guardChecking).toBeNull();
    expect(blocked.guards.output.map((mark) => [mark.guard, mark.action])).toEqual([
      ["pii", "none"],
      ["tone", "block"],
    ]);
    expect(getShieldMark(blocked.guards.output)?.guard).toBe("tone");
    expect(blocked.timeline.at(-1)).toMatchObject({
      title: "Guard tone blocked the answer: The answer promises a refund.",
      tone: "bad",
    });
  });

  it("closes the check when the run ends, and marks the query for input guards", () => {
    const view = applyRunEvents(createRunView("run-1"), [
      event("guard_verdict", {
        guard: "secrets",
        on: "input",
        verdict: "fail",
        action: "flag",
        findings: [{ kind: "aws_key", count: 1 }],
        check: "secrets",
      }),
      event("guard_checking", { on: "output", guards: ["tone"] }),
      finished("Refunds take 5 days."),
    ]);
    expect(view.guardChecking).toBeNull();
    expect(view.guards.input[0]).toMatchObject({ guard: "secrets", action: "flag" });
    expect(view.timeline[0]?.title).toBe("Guard secrets flagged 1 aws_key in the query");
  });

  it("replays to the same view as the live fold, at every position", () => {
    const events = [
      ...lookupCall(0),
      piiVerdict(0),
      event("guard_checking", { on: "output", guards: ["tone"] }, 1),
      event(
        "guard_verdict",
        { guard: "tone", on: "output", verdict: "pass", action: "none", findings: [], check: "llm" },
        1,
      ),
      finished("Ana can be reached by email."),
    ];
    const replay = createReplayIndex(events, { every: 2 });
    for (let position = 0; position <= events.length; position += 1)
      expect(replay.getViewAt(position)).toEqual(
        applyRunEvents(createRunView("run-1"), events.slice(0, position)),
      );
    expect(replay.getViewAt(4).guardChecking?.pending).toEqual(["tone"]);
  });
});

describe("a guard's message", () => {
  it("joins the sentence when the guard wrote it; the planner's stand-in is left out, an error's cause goes under it", () => {
    const verdict = (message: string) =>
      event("guard_verdict", {
        guard: "pii",
        on: "tool_result",
        verdict: "fail",
        action: "block",
        findings: [{ kind: "email", count: 1 }],
        check: "pii",
        tool: "lookup",
        message,
      });
    const view = applyRunEvents(createRunView("run-1"), [
      verdict("No personal data in results."),
      verdict('Guard "pii" stopped this tool result (found 1 email).'),
    ]);
    expect(view.timeline.map((line) => [line.title, line.detail])).toEqual([
      [
        "Guard pii blocked lookup's result (1 email): No personal data in results.",
        "pii check on tool results",
      ],
      ["Guard pii blocked lookup's result (1 email)", "pii check on tool results"],
    ]);
    const failed = applyRunEvents(createRunView("run-1"), [
      event("guard_verdict", {
        guard: "judge",
        on: "output",
        verdict: "error",
        action: "block",
        findings: [],
        check: "llm",
        message:
          'Guard "judge" could not check this (took longer than its limit of 10000 ms), so it blocked it.',
      }),
    ]);
    expect(failed.timeline[0]).toMatchObject({
      title: "Guard judge could not check the answer, so it blocked it (fails closed)",
      detail:
        'Guard "judge" could not check this (took longer than its limit of 10000 ms), so it blocked it.',
      tone: "bad",
    });
  });
});

describe("getGuardSentence", () => {
  const base = { guard: "g", on: "tool_result" as const, tool: "lookup", findings: [] };
  it("says what each action did, and that an error fails closed unless allowed", () => {
    expect(getGuardSentence({ ...base, verdict: "fail", action: "block", message: "No secrets." })).toBe(
      "Guard g blocked lookup's result: No secrets.",
    );
    expect(
      getGuardSentence({ ...base, verdict: "fail", action: "pause", findings: [{ kind: "iban", count: 1 }] }),
    ).toBe("Guard g paused the run for a person over lookup's result (1 iban)");
    expect(getGuardSentence({ ...base, verdict: "error", action: "block", message: "timed out" })).toBe(
      "Guard g could not check lookup's result, so it blocked it (fails closed): timed out",
    );
    expect(getGuardSentence({ ...base, on: "output", verdict: "error", action: "allow" })).toBe(
      "Guard g could not check the answer and let it through (onError: allow)",
    );
  });
});
