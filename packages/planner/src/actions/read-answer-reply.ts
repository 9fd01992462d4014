import type { PlannerAction } from "@waddle/protocol";
import { interpretReply, type InterpretOptions } from "./interpret-reply.js";
import { isPlaceholderAnswer, isPlaceholderValue } from "./placeholders.js";
import { salvageJsonValues } from "./salvage-json.js";
import { createSalvageNote, type SalvageNote } from "./salvage-rules.js";

/** Keys a reply to "write your answer" may hold it under, in order (placeholders skip to the next). */
const ANSWER_REPLY_KEYS = [
  "answer",
  "raw_answer",
  "final_answer",
  "text",
  "response",
  "content",
  "message",
  "output",
  "result",
] as const;

/** Rules whose answer the planner inferred rather than read: the payload says so (`salvaged`). */
export const INFERRED_ANSWER_RULES: ReadonlySet<string> = new Set(["prose_answer", "answer_fragment"]);

/** What a reply to "write your answer now" gave. */
export type AnswerReply =
  /** An answer: `args` are the final_response args the reply carried besides it (sources, …). */
  | { kind: "answer"; answer: string; args: Record<string, unknown>; note?: SalvageNote }
  /** A whole action that is not an answer (a tool call, a plan): the caller decides. */
  | { kind: "action"; action: PlannerAction }
  /**
   * A reply cut off (it ends inside its JSON, or stopped at the token limit): no answer, as in PenguiFlow,
   * where a repair reply that does not parse gives nothing. `fragment` is the answer text it had so far,
   * for the caller to keep aside (or, at the end of a budget, to show marked as cut off).
   */
  | { kind: "cut_off"; reason: string; fragment?: { answer: string; note: SalvageNote } }
  | { kind: "none"; reason: string };

/**
 * Reads the reply to an answer re-ask (a `final_response` came without a usable answer) or to the
 * tool-less turn at the end of a budget, accepting whatever shape the answer came in: a whole action,
 * `{answer}`, `{raw_answer}`, `{text}`, `{response}`, `{content}`, fenced JSON, `Answer: …`, plain prose.
 * Placeholder values are skipped for the next key, and a reply that is only a placeholder (`n/a`,
 * `unknown`, `TBD`, `<answer>`) is no answer: asked for the answer, the model had none. A reply cut off
 * (`{"answer": "x"`, or stopped at the token limit) is no answer either: `cut_off`, with the answer text
 * it had so far (docs/empty-final-answer.md).
 */
export function readAnswerReply(content: string, options: InterpretOptions): AnswerReply {
  const read = readAnyAnswer(content, options);
  return read.kind === "answer" && isNoAnswer(read.answer)
    ? { kind: "none", reason: `the reply was only a placeholder (${read.answer.trim()})` }
    : read;
}

/** After an explicit request for the answer, the words for "I do not know" are no answer either. */
function isNoAnswer(text: string): boolean {
  return isPlaceholderAnswer(text) || isPlaceholderValue(text);
}

function readAnyAnswer(content: string, options: InterpretOptions): AnswerReply {
  if (options.finishReason === "length") {
    return readCutOff(
      extractAnswerFragment(content) ?? getProseAnswer(content)?.answer,
      "stopped at the token limit",
    );
  }
  const interpreted = interpretReply(content, options);
  if (!interpreted.ok && interpreted.code === "truncated_reply") {
    return readCutOff(extractAnswerFragment(content), "ends inside its JSON");
  }
  if (interpreted.ok) {
    const { action } = interpreted;
    if (action.next_node !== "final_response") return { kind: "action", action };
    const { answer, ...args } = action.args;
    if (typeof answer === "string" && answer.trim().length > 0 && !isNoAnswer(answer)) {
      const first = interpreted.notes[0];
      return first === undefined
        ? { kind: "answer", answer, args }
        : { kind: "answer", answer, args, note: first };
    }
  }
  const values = salvageJsonValues(content).filter((candidate) => candidate.path !== "truncated");
  for (const { value } of values) {
    const found = findAnswerKey(value);
    if (found !== undefined) {
      return {
        kind: "answer",
        answer: found.answer,
        args: {},
        note: createSalvageNote(`answer_key:${found.key}`, `the answer was read from "${found.key}"`),
      };
    }
  }
  if (values.length > 0) return { kind: "none", reason: "the JSON reply held no usable answer" };
  const fragment = extractAnswerFragment(content);
  if (fragment !== undefined) {
    return {
      kind: "answer",
      answer: fragment,
      args: {},
      note: createSalvageNote("answer_fragment", 'the "answer" text of a malformed reply was kept'),
    };
  }
  const prose = getProseAnswer(content);
  if (prose !== undefined) return { kind: "answer", answer: prose.answer, args: {}, note: prose.note };
  return { kind: "none", reason: "the reply held no answer text" };
}

/** A cut-off reply: no answer, with the answer text it had so far when there is any. */
function readCutOff(fragment: string | undefined, why: string): AnswerReply {
  const reason = `the reply was cut off (it ${why})`;
  if (fragment === undefined || isNoAnswer(fragment)) return { kind: "cut_off", reason };
  const note = createSalvageNote("answer_fragment", `${reason}: its answer text so far is marked as cut off`);
  return { kind: "cut_off", reason, fragment: { answer: fragment, note } };
}

function findAnswerKey(value: unknown): { key: string; answer: string } | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ANSWER_REPLY_KEYS) {
    const answer = toText(record[key]);
    if (answer !== undefined && !isNoAnswer(answer)) return { key, answer };
  }
  const args = record.args;
  return typeof args === "object" && args !== null ? findAnswerKey(args) : undefined;
}

function toText(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim().length > 0 ? value : undefined;
  if (Array.isArray(value) && value.length > 0 && value.every((line) => typeof line === "string")) {
    const joined = (value as string[]).join("\n");
    return joined.trim().length > 0 ? joined : undefined;
  }
  return undefined;
}

const ANSWER_PREFIX = /^\s*(?:\*\*|__)?(?:final answer|answer|response)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*/i;
const WHOLE_FENCE = /^\s*```[^\n]*\n([\s\S]*?)\n?```\s*$/;

/**
 * A reply that holds no JSON at all, as an answer: a fence around the whole text is taken off, and an
 * `Answer:` prefix. Undefined for text that is empty, a placeholder, or has no letter or digit.
 */
export function getProseAnswer(content: string): { answer: string; note: SalvageNote } | undefined {
  let text = content.trim();
  const fenced = WHOLE_FENCE.exec(text);
  if (fenced !== null) text = (fenced[1] ?? "").trim();
  const prefixed = ANSWER_PREFIX.exec(text);
  if (prefixed !== null) text = text.slice(prefixed[0].length).trim();
  if (text.length === 0 || !/[\p{L}\p{N}]/u.test(text) || isPlaceholderAnswer(text)) return undefined;
  if (salvageJsonValues(text).some((candidate) => typeof candidate.value === "object")) return undefined;
  const note = createSalvageNote(
    "prose_answer",
    prefixed === null
      ? "the reply was plain text, not JSON: it was taken as the answer"
      : 'the reply was plain text starting "Answer:": the text after it was taken as the answer',
  );
  return { answer: text, note };
}

const FRAGMENT_START = /"(?:answer|raw_answer|final_answer)"\s*:\s*"/;

/**
 * The text of `"answer": "…` in a reply that is not valid JSON (unescaped quotes, a cut-off end): from the
 * opening quote to the last quote before the closing braces, escapes decoded. Undefined when none.
 */
export function extractAnswerFragment(content: string): string | undefined {
  const start = FRAGMENT_START.exec(content);
  if (start === null) return undefined;
  let body = content.slice(start.index + start[0].length);
  // The answer string ends at the last quote that only braces, commas and keys follow; else at the end.
  const end = /"\s*(?:,\s*"[A-Za-z_]+"\s*:[\s\S]*)?\}\s*\}?\s*(?:```)?\s*$/.exec(body);
  // Without closing braces the string runs to the end: the braces after it are not the answer's, nor its
  // own closing quote (`{"answer": "x"` is `x`), unless that quote is escaped (`\"`).
  body =
    end === null
      ? body.replace(/\s*\}*\s*(?:```)?\s*$/, "").replace(/(?<=(?:^|[^\\])(?:\\\\)*)"$/, "")
      : body.slice(0, end.index);
  const text = decodeEscapes(body).trim();
  if (text.length === 0 || isPlaceholderAnswer(text)) return undefined;
  return text;
}

function decodeEscapes(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_match, code: string) => {
    if (code.startsWith("u")) return String.fromCharCode(Number.parseInt(code.slice(1), 16));
    return ESCAPES[code] ?? code;
  });
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
