import type { Observed, RunProgress } from "./offline-progress.js";

/** String fields that read as an answer, best first. */
const ANSWER_FIELDS = [
  "answer",
  "summary",
  "brief",
  "report",
  "digest",
  "result",
  "response",
  "message",
  "text",
  "body",
  "content",
  "output",
  "explanation",
];
const MAX_FIELD_CHARS = 300;

export interface OfflineAnswer {
  answer: string;
  /** True when a failure or a refused approval left the request unfinished. */
  incomplete: boolean;
}

/**
 * Writes the final answer from the observations as readable text: the answer-like string field of the
 * newest observation that has one (summary, answer, brief, …), preceded by a plain description of the
 * newest result when that is a different one; then a note on failures and refused approvals. No JSON dumps.
 */
export function assembleOfflineAnswer(input: {
  query: string;
  progress: RunProgress;
  /** Failed tools that an alternative replaced: tool → the alternative. */
  replaced: ReadonlyMap<string, string>;
}): OfflineAnswer {
  const { progress, replaced } = input;
  const parts: string[] = [];
  const latest = progress.observations[0];
  const primary = findAnswerText(progress.observations);
  if (latest !== undefined && (primary?.from !== latest || primary.argField !== undefined))
    parts.push(describeObservation(latest));
  if (primary?.argField !== undefined) parts.push(describeApprovedCall(primary.from, primary.argField));
  if (primary !== undefined) parts.push(primary.text);
  if (latest === undefined) parts.push(`No tool produced a result for "${input.query}".`);
  const notes: string[] = [];
  let incomplete = false;
  for (const [tool, failure] of progress.failed) {
    const alternative = replaced.get(tool);
    const reason = failure.message || failure.error_code;
    if (alternative !== undefined)
      notes.push(`${tool} failed (${reason}), so ${alternative} was used instead.`);
    else {
      notes.push(`${tool} failed: ${reason}`);
      incomplete = true;
    }
  }
  for (const tool of progress.rejected) {
    notes.push(`${tool} was not run: its approval was rejected.`);
    incomplete = true;
  }
  if (notes.length > 0) parts.push(`Note: ${notes.join(" ")}`);
  return { answer: parts.join("\n\n"), incomplete };
}

interface AnswerText {
  text: string;
  from: Observed;
  /** Set when the text is an arg of a call a person approved (`from.args[argField]`). */
  argField?: string;
}

/**
 * The newest answer-like text among the calls that ran: a result's field, or else the args of a call a
 * person approved, which are theirs (perhaps edited) and supersede the drafts that came before them. Args
 * the planner filled itself only echo the query or older results, so they are not quoted.
 */
function findAnswerText(observations: readonly Observed[]): AnswerText | undefined {
  for (const observed of observations) {
    if (typeof observed.value === "string" && observed.value.trim() !== "") {
      return { text: observed.value.trim(), from: observed };
    }
    const found = findAnswerField(observed.value) ?? findAnswerField(nestedRecords(observed.value));
    if (found !== undefined) return { text: found.text, from: observed };
    const approved = observed.approved === true ? findAnswerField(observed.args) : undefined;
    if (approved !== undefined) return { text: approved.text, from: observed, argField: approved.field };
  }
  return undefined;
}

function findAnswerField(value: unknown): { text: string; field: string } | undefined {
  const records = Array.isArray(value) ? value : [value];
  for (const field of ANSWER_FIELDS) {
    for (const record of records) {
      if (!isRecord(record)) continue;
      const text = record[field];
      if (typeof text === "string" && text.trim() !== "") return { text: text.trim(), field };
    }
  }
  return undefined;
}

/** `send_email ran as approved, with to: dana@example.com, subject: Q3, and this body:` */
function describeApprovedCall(observed: Observed, quoted: string): string {
  const fields = Object.entries(observed.args ?? {})
    .filter(([key]) => key !== quoted)
    .slice(0, 8)
    .map(([key, item]) => `${key}: ${describeValue(item)}`);
  const others = fields.length === 0 ? "" : ` ${fields.join(", ")}, and`;
  return `${observed.tool} ran as approved, with${others} this ${quoted}:`;
}

function nestedRecords(value: unknown): Record<string, unknown>[] {
  return isRecord(value) ? Object.values(value).filter(isRecord) : [];
}

/** `send_email returned sent: yes, messageId: msg-1.` */
export function describeObservation(observed: Observed): string {
  const { value, tool } = observed;
  if (!isRecord(value)) return `${tool} returned ${describeValue(value)}.`;
  const fields = Object.entries(value)
    .slice(0, 8)
    .map(([key, item]) => `${key}: ${describeValue(item)}`);
  return fields.length === 0 ? `${tool} finished.` : `${tool} returned ${fields.join(", ")}.`;
}

function describeValue(value: unknown): string {
  if (typeof value === "string") return clip(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return String(value);
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item === "string" || typeof item === "number")) {
      const shown = value.slice(0, 5).join("; ");
      return value.length > 5 ? `${clip(shown)} (+${value.length - 5} more)` : clip(shown);
    }
    return `${value.length} item${value.length === 1 ? "" : "s"}`;
  }
  const keys = Object.keys(value);
  return `${keys.length} field${keys.length === 1 ? "" : "s"} (${keys.slice(0, 4).join(", ")})`;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_FIELD_CHARS ? `${flat.slice(0, MAX_FIELD_CHARS - 1)}…` : flat;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
