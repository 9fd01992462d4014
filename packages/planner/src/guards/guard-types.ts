import type { GuardFinding } from "@waddle/protocol";
import type { ToolUsageReport } from "../catalog/tool-usage-report.js";

/** A piece of text a check found, `[start, end)` in the string it scanned; `kind` names what (`email`, `aws_key`). */
export interface GuardSpan {
  start: number;
  end: number;
  kind: string;
}

/** What a scanning check (pii, secrets, prompt_injection, deny_words) found in one value. */
export interface ScanResult {
  /** Counts by kind, never the text. Empty: nothing found. */
  findings: GuardFinding[];
  /** The value with every span replaced by its mask (`[email]`), in the same shape (objects walked). */
  redacted: unknown;
}

/**
 * A scanning check, compiled once per guard. `scan` walks every string in `value` (objects and arrays,
 * keys left alone), yields to the event loop between slices of large text (never more than a few ms of
 * work at a time), and stops with the signal's reason when it aborts.
 */
export interface Scanner {
  scan(value: unknown, signal?: AbortSignal): Promise<ScanResult>;
  /** One string at a time, synchronously: for small texts (the designer's sample box, tests). */
  scanText(text: string): GuardSpan[];
}

/** What a `module` check (a registered function, `defineGuardCheck`) answers. */
export interface ModuleCheckResult {
  pass: boolean;
  /** Counts by kind; a failing check with none is counted as one finding of the check's name. */
  findings?: GuardFinding[];
  /** Said to the caller or model when it fails (never echo the matched text). */
  message?: string;
  /** The value with what was found masked, for a guard whose action is `redact`. */
  redacted?: unknown;
}

/** A `module` check's function: the value (a query, a tool result, an answer) and where it is checked. */
export type ModuleGuardCheck = (
  value: unknown,
  context: { stage: "input" | "tool_result" | "output"; tool?: string; signal: AbortSignal },
) => ModuleCheckResult | Promise<ModuleCheckResult>;

/** A registered module check, e.g. `defineGuardCheck({name: "no-competitors", check})`. */
export interface GuardCheckDefinition {
  readonly name: string;
  readonly description?: string;
  readonly check: ModuleGuardCheck;
}

/** Marks a module check for the server's registry (as `defineTool` marks tools). */
export function defineGuardCheck(definition: GuardCheckDefinition): GuardCheckDefinition {
  return Object.freeze({ ...definition, kind: "guard_check" as const });
}

/** A check's answer on one value: `redacted` when it can mask what it found. */
export interface CheckOutcome {
  pass: boolean;
  findings: GuardFinding[];
  redacted?: unknown;
  message?: string;
  /** What an `llm` check's judge cost, counted in the run's usage. */
  usage?: ToolUsageReport;
}
