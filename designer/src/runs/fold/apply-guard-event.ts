import type { GuardApplied, GuardVerdict, RunEventData } from "@waddle/protocol";
import { addGuardFindings, formatGuardFindings } from "../../util/format-guard-findings.js";
import type { GuardMark } from "./run-view.js";
import type { RunViewDraft } from "./run-view-draft.js";

type VerdictData = RunEventData<"guard_verdict">;

/**
 * A guard's decision: on the tool whose result it checked (the node's shield), or on the query or the
 * answer (the shields beside them); it also closes that guard's part of an open `guard_checking`.
 */
export function applyGuardVerdict(draft: RunViewDraft, event: { seq: number; data: VerdictData }): void {
  const { data, seq } = event;
  const { scalars } = draft;
  if (data.on === "tool_result") {
    if (data.tool === undefined) return;
    const node = draft.node(data.tool);
    node.guards = addGuardMark(node.guards ?? [], data, seq);
    if (data.action !== "none") node.changedSeq = seq;
  } else {
    const marks = addGuardMark(scalars.guards[data.on], data, seq);
    scalars.guards = { ...scalars.guards, [data.on]: marks };
  }
  const checking = scalars.guardChecking;
  if (checking !== null && checking.on === data.on) {
    const pending = checking.pending.filter((guard) => guard !== data.guard);
    scalars.guardChecking = pending.length === 0 ? null : { ...checking, pending };
  }
}

/** The answer is held back while these guards check it. */
export function applyGuardChecking(
  draft: RunViewDraft,
  event: { seq: number; data: RunEventData<"guard_checking"> },
): void {
  const { on, guards } = event.data;
  draft.scalars.guardChecking = { on, guards, pending: guards, seq: event.seq };
}

function addGuardMark(marks: readonly GuardMark[], data: VerdictData, seq: number): GuardMark[] {
  const index = marks.findIndex((mark) => mark.guard === data.guard);
  const before = index < 0 ? undefined : marks[index];
  const message = data.message ?? (data.verdict === "pass" ? undefined : before?.message);
  const mark: GuardMark = {
    guard: data.guard,
    on: data.on,
    check: data.check,
    verdict: data.verdict,
    action: data.action,
    ...(message === undefined ? {} : { message }),
    decisions: (before?.decisions ?? 0) + 1,
    acted: (before?.acted ?? 0) + (data.action === "none" ? 0 : 1),
    findings: addGuardFindings(before?.findings ?? [], data.findings),
    seq,
  };
  return index < 0 ? [...marks, mark] : marks.map((old, at) => (at === index ? mark : old));
}

const ACTION_WEIGHT: Record<GuardApplied, number> = {
  none: 0,
  allow: 1,
  flag: 2,
  redact: 3,
  pause: 4,
  block: 5,
};
const VERDICT_WEIGHT: Record<GuardVerdict, number> = { pass: 0, fail: 1, error: 2 };

/** The mark a shield shows (its colour and data-action): the one that did the most, then the latest. */
export function getShieldMark(marks: readonly GuardMark[]): GuardMark | null {
  let shown: GuardMark | null = null;
  for (const mark of marks) {
    const weight = ACTION_WEIGHT[mark.action] * 10 + VERDICT_WEIGHT[mark.verdict];
    const shownWeight = shown ? ACTION_WEIGHT[shown.action] * 10 + VERDICT_WEIGHT[shown.verdict] : -1;
    if (weight > shownWeight || (weight === shownWeight && mark.seq > (shown?.seq ?? 0))) shown = mark;
  }
  return shown;
}

/** What a guard looked at, in words: "lookup's result", "the query", "the answer". */
export function getGuardPlace(data: { on: VerdictData["on"]; tool?: string | undefined }): string {
  if (data.on === "input") return "the query";
  if (data.on === "output") return "the answer";
  return data.tool === undefined ? "a tool's result" : `${data.tool}'s result`;
}

/**
 * One decision in a sentence: "Guard pii redacted 1 email, 1 card in lookup's result", "Guard tone
 * blocked the answer: Too rude.", "Guard pii passed lookup's result". Findings are counts, never text.
 */
export function getGuardSentence(
  data: Pick<VerdictData, "guard" | "on" | "verdict" | "action" | "findings" | "message" | "tool">,
  place = getGuardPlace(data),
): string {
  const found = formatGuardFindings(data.findings);
  const own = getOwnMessage(data);
  const why = own ? `: ${own}` : "";
  const guard = `Guard ${data.guard}`;
  if (data.verdict === "pass") return `${guard} passed ${place}`;
  if (data.verdict === "error") {
    return data.action === "allow"
      ? `${guard} could not check ${place} and let it through (onError: allow)${why}`
      : `${guard} could not check ${place}, so it blocked it (fails closed)${why}`;
  }
  const over = found ? ` (${found})` : "";
  switch (data.action) {
    case "redact":
      return `${guard} redacted ${found || "what it found"} in ${place}`;
    case "flag":
      return `${guard} flagged ${found ? `${found} in ` : ""}${place}${why}`;
    case "pause":
      return `${guard} paused the run for a person over ${place}${over}${why}`;
    case "block":
      return `${guard} blocked ${place}${over}${why}`;
    default:
      return `${guard} failed ${place}${over}${why}`;
  }
}

/**
 * The guard's own message (its `message`, or what its check said), or undefined for the planner's stand-in
 * (`Guard "pii" stopped this tool result (found 1 email).`), which says nothing the sentence does not.
 */
export function getOwnMessage(data: { guard: string; message?: string | undefined }): string | undefined {
  const { message } = data;
  return message === undefined || message.startsWith(`Guard "${data.guard}"`) ? undefined : message;
}

/** A shield's tooltip line for one guard: its sentence over all its decisions there. */
export function getGuardMarkText(mark: GuardMark, tool?: string): string {
  const place = getGuardPlace({ on: mark.on, tool });
  const times = mark.decisions > 1 ? ` (${mark.acted} of ${mark.decisions} checks acted)` : "";
  return `${getGuardSentence({ ...mark, findings: [...mark.findings], tool }, place)}${times}`;
}

/** "Checking the answer before it is shown…" while output guards hold it back. */
export function getGuardCheckingText(data: RunEventData<"guard_checking">): string {
  if (data.on === "output") return "Checking the answer before it is shown…";
  return data.on === "input" ? "Checking the query before the model sees it…" : "Checking a tool's result…";
}
