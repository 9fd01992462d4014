import { GuardFinding, GuardStage } from "@waddle/protocol";
import { z } from "zod";
import { formatGuardFindings } from "../../util/format-guard-findings.js";

/** A guard's pause payload: who held what, and what it found (counts by kind: the text is never carried). */
const GuardPausePayload = z.object({
  guard: z.string(),
  on: GuardStage,
  tool: z.string().optional(),
  findings: z.array(GuardFinding).catch([]),
});

const STAGES: Record<GuardStage, string> = {
  input: "the query",
  tool_result: "a tool's result",
  output: "the answer",
};

/** Why a run paused, when the pause says so itself: the stuck-run breaker's message, a guard's facts. */
export type PauseExplanation =
  /** The pause's sentence alone (the stuck breaker's, or a guard's before its facts are read). */
  | { kind: "note"; message: string }
  | {
      kind: "guard";
      guard: string;
      /** "lookup's result", "the answer". */
      place: string;
      /** "1 email, 1 card", or "" when the check counts nothing (max_length, llm). */
      findings: string;
      message: string | null;
    };

/** What a `stuck` or `guard` pause carries for a person to decide on, or null (other pauses, or a bad payload). */
export function getPauseExplanation(
  reason: string,
  payload: Readonly<Record<string, unknown>> | undefined,
): PauseExplanation | null {
  if (reason !== "stuck" && reason !== "guard") return null;
  const message = typeof payload?.message === "string" && payload.message !== "" ? payload.message : null;
  const parsed = reason === "guard" ? GuardPausePayload.safeParse(payload) : null;
  if (!parsed?.success) return message === null ? null : { kind: "note", message };
  const { guard, on, tool, findings } = parsed.data;
  return {
    kind: "guard",
    guard,
    place: on === "tool_result" && tool !== undefined ? `${tool}'s result` : STAGES[on],
    findings: formatGuardFindings(findings),
    message,
  };
}
