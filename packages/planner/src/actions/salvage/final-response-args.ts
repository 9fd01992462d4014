// A terminal action's args as `{answer, …}`: answers in any shape, PenguiFlow's answer-over-raw_answer
// precedence, and the texts that lose kept under extra (docs/normalization.md, docs/empty-final-answer.md).
import { isPlaceholderAnswer } from "../placeholders.js";
import { isRecord, rewrite, type Json, type Rewrites } from "./rewrites.js";

const ANSWER_KEYS = ["answer", "raw_answer", "final_answer", "text", "response", "content"] as const;

/** Keys that hold an answer even on an object with no `next_node` (`{"answer": …}`). */
const BARE_ANSWER_KEYS = ["answer", "raw_answer", "final_answer"] as const;

/**
 * A `final_response` as `{answer, …}`. `answer` wins over a `raw_answer` with different text (PenguiFlow's
 * `normalize_action` and `answer_text()`: `raw_answer` is the legacy synonym, read when `answer` is missing);
 * the text that loses is kept under `extra`, never dropped. A stand-in answer gives way to a real one under
 * another key (`raw_answer`, `text`, `content`, a top-level `answer`).
 */
export function toFinalResponse(data: Json, rewrites: Rewrites): Json {
  const rawArgs = data.args;
  const args: Json = isRecord(rawArgs) ? { ...rawArgs } : {};
  if (typeof rawArgs === "string") args.answer = rawArgs;
  else if (Array.isArray(rawArgs)) {
    const lines = readArgsLines(rawArgs);
    if (lines !== undefined) {
      args.answer = lines.text;
      rewrite(rewrites, "args_lines", lines.detail);
    }
  }
  const current = getUsableAnswer(args.answer);
  const raw = getUsableAnswer(args.raw_answer) ?? getUsableAnswer(data.raw_answer);
  if (current !== undefined) {
    if (typeof args.answer !== "string") setAnswer(args, current, rewrites);
  } else if (raw !== undefined) {
    setAnswer(args, raw, rewrites);
    rewrite(rewrites, "synonym:raw_answer");
  } else {
    // An empty or placeholder answer beside a real one under another key (text, content, …): the other.
    const key = ANSWER_KEYS.find((name) => name !== "answer" && getUsableAnswer(args[name]) !== undefined);
    const topKey = ANSWER_KEYS.find((name) => getUsableAnswer(data[name]) !== undefined);
    if (key !== undefined) {
      setAnswer(args, getUsableAnswer(args[key]), rewrites);
      rewrite(rewrites, `synonym:${key}`);
    } else if (topKey !== undefined) {
      setAnswer(args, getUsableAnswer(data[topKey]), rewrites);
      rewrite(rewrites, "hybrid");
    } else {
      const stand = readAnswerValue(args.answer);
      if (stand !== undefined && typeof args.answer !== "string") setAnswer(args, stand, rewrites);
    }
  }
  if (raw !== undefined || typeof args.raw_answer === "string") delete args.raw_answer;
  keepOtherAnswers(args, data, rewrites);
  return { next_node: "final_response", args };
}

/**
 * `answer` and `raw_answer` texts (in args or beside them) that differ from the chosen answer, kept under
 * `extra` by their key: the model wrote them, so they are not dropped.
 */
function keepOtherAnswers(args: Json, data: Json, rewrites: Rewrites): void {
  const chosen = args.answer;
  const given = isRecord(data.args) ? data.args : {};
  const others: Json = {};
  for (const [key, value] of [
    ["answer", given.answer],
    ["raw_answer", given.raw_answer],
    ["answer", data.answer],
    ["raw_answer", data.raw_answer],
  ] as const) {
    const text = getUsableAnswer(value)?.text;
    if (text === undefined || text === chosen || Object.values(others).includes(text)) continue;
    others[key in others ? `${key}_top_level` : key] = text;
  }
  const keys = Object.keys(others);
  if (keys.length === 0) return;
  const extra = args.extra;
  args.extra = isRecord(extra)
    ? { ...extra, ...others }
    : extra === undefined
      ? others
      : { extra, ...others };
  const kept = `extra.${keys.join(", extra.")}`;
  rewrite(
    rewrites,
    "answer_texts_kept",
    `the answer was given twice with different texts: args.answer is the answer (raw_answer is its legacy synonym); the other text is kept under ${kept}`,
  );
}

/** A list given as the whole args (`["Line one.", "", "Line two."]`): its non-empty strings, one a line. */
function readArgsLines(list: readonly unknown[]): { text: string; detail: string } | undefined {
  const lines = list.filter((item): item is string => typeof item === "string" && item.trim().length > 0);
  if (lines.length === 0) return undefined;
  const dropped = list.length - lines.length;
  const detail =
    dropped === 0
      ? "args given as a list of lines were joined as the answer"
      : `args given as a list of lines were joined as the answer; ${dropped} empty or non-text item${dropped === 1 ? " was" : "s were"} dropped`;
  return { text: lines.join("\n"), detail };
}

/** An answer value that is text and not a stand-in (`<answer>`, `TBD`). */
function getUsableAnswer(value: unknown): AnswerValue | undefined {
  const found = readAnswerValue(value);
  return found === undefined || isPlaceholderAnswer(found.text) ? undefined : found;
}

/** True when an object holds an answer under `answer`, `raw_answer` or `final_answer`. */
export function hasBareAnswer(data: Json): boolean {
  return BARE_ANSWER_KEYS.some((key) => readAnswerValue(data[key]) !== undefined);
}

interface AnswerValue {
  text: string;
  /** How a value that was not a string became one. */
  rule?: "answer_lines" | "answer_unwrapped" | "answer_coerced";
}

/** An answer value as text: a string, a list of lines (joined), `{text|content|answer}`, a number. */
function readAnswerValue(value: unknown): AnswerValue | undefined {
  if (typeof value === "string") return value.trim().length > 0 ? { text: value } : undefined;
  if (typeof value === "number" || typeof value === "boolean") {
    return { text: String(value), rule: "answer_coerced" };
  }
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every((line) => typeof line === "string" || typeof line === "number")) {
      return undefined;
    }
    const text = value.map(String).join("\n");
    return text.trim().length > 0 ? { text, rule: "answer_lines" } : undefined;
  }
  if (isRecord(value)) {
    for (const key of ["text", "content", "answer", "markdown", "value"]) {
      const inner = value[key];
      if (typeof inner === "string" && inner.trim().length > 0)
        return { text: inner, rule: "answer_unwrapped" };
    }
  }
  return undefined;
}

function setAnswer(args: Json, value: AnswerValue | undefined, rewrites: Rewrites): void {
  if (value === undefined) return;
  args.answer = value.text;
  if (value.rule !== undefined) rewrite(rewrites, value.rule);
}
