import type { GuardCheck, GuardSampleResult } from "@waddle/protocol";
import type { LlmClient } from "../llm/llm-client.js";
import { toGuardCheckMap, type GuardChecksInput } from "./create-guard-engine.js";
import { compileCheck } from "./evaluate-check.js";

/**
 * One check on a sample text, as the designer's sample box runs it (`POST /api/guards/check`): the verdict,
 * what it found by kind, the text as `redact` would leave it, and how long it took. A check that throws is
 * an `error` verdict with its message, as in a run.
 */
export async function checkGuardSample(
  check: GuardCheck,
  text: string,
  options: {
    llm?: LlmClient;
    guardChecks?: GuardChecksInput;
    signal?: AbortSignal;
    clock?: () => number;
  } = {},
): Promise<GuardSampleResult> {
  const clock = options.clock ?? (() => performance.now());
  const { llm } = options;
  const run = compileCheck(check, {
    modules: toGuardCheckMap(options.guardChecks),
    judgeFor: () => llm,
  });
  const started = clock();
  const signal = options.signal ?? new AbortController().signal;
  try {
    const result = await run(text, { stage: "input", signal });
    const durationMs = Math.max(0, clock() - started);
    if (result.pass) return { verdict: "pass", findings: [], durationMs };
    const out: GuardSampleResult = { verdict: "fail", findings: result.findings, durationMs };
    if (typeof result.redacted === "string") out.redacted = result.redacted;
    if (result.message !== undefined) out.message = result.message;
    return out;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { verdict: "error", findings: [], message, durationMs: Math.max(0, clock() - started) };
  }
}
