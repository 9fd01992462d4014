import type { OfflineDecision } from "./offline-decision.js";
import { rewriteOffline, type FollowUpRequest } from "./offline-rewrite.js";
import type { OfflineView } from "./offline-view.js";

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  single: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twenty: 20,
  thirty: 30,
  fifty: 50,
};
const COUNT = `(\\d+|${Object.keys(NUMBER_WORDS).join("|")})`;
const SENTENCES = new RegExp(`\\b${COUNT}\\s+(?:short\\s+|single\\s+)?sentences?\\b`, "i");
const WORDS = new RegExp(`\\b${COUNT}\\s+words?\\b`, "i");
const BULLETS = /\b(?:bullet(?:ed)?(?:\s+(?:points?|list))?|bullets|as\s+a\s+list|list\s+form)\b/i;
const SHORTER =
  /\b(?:shorten|shorter|briefer|brief|briefly|condense|summari[sz]e|summary|tl;?dr|trim|concise|short)\b/i;
const REPEAT = /\b(?:repeat|restate|once\s+more|say\s+(?:it|that)\s+again)\b/i;
const UNSUPPORTED =
  /\b(rewrite|rephrase|reword|translate|simplify|expand|elaborate|formal(?:ly)?|casual(?:ly)?|friendl(?:y|ier)|polite(?:ly)?|clearer|longer)\b/i;

/** An instruction verb taking the previous answer as its object: "shorten that", "translate it". */
const VERB_ON_ANSWER = new RegExp(
  "\\b(?:shorten|summari[sz]e|condense|trim|cut|rewrite|rephrase|reword|translate|simplify|expand|" +
    "repeat|restate|make|put|turn|format|say)\\s+" +
    "(?:it|your\\s+(?:last\\s+|previous\\s+)?(?:answer|reply|response)|the\\s+(?:last\\s+|previous\\s+)?" +
    "(?:answer|reply|response)|(?:that|this)(?=\\s*(?:$|[.,!?]|\\s(?:to|in|into|as|for|more|less|please|" +
    "again|down|up|a|an|but|and|shorter|briefer|simpler)\\b)))",
  "i",
);
/** Words a query made only of a follow-up uses ("Shorten that to one sentence", "tl;dr please"). */
const FOLLOW_UP_WORDS = new Set(
  (
    "please can could would will you just now then make put turn keep give me it that this your the a an " +
    "answer reply response last previous above in into to as at most under within no more less than of " +
    "only but and so again same thing is too long way much bit little lot shorten shorter briefer brief " +
    "briefly condense summarize summarise summary tldr tl;dr trim concise short sentence sentences word words " +
    "bullet bullets bulleted points point list form single repeat restate once rewrite rephrase reword " +
    "simplify expand elaborate formal formally casual casually friendly friendlier polite politely " +
    "clearer longer say"
  ).split(" "),
);

/**
 * What a turn asks of the previous answer, when it refers to it: an instruction verb on "that", "it" or
 * "your answer", or a query made of follow-up words only. Undefined for a query of its own.
 */
export function getFollowUpRequest(query: string): FollowUpRequest | undefined {
  const words = query.toLowerCase().match(/[a-z0-9;]+/g) ?? [];
  const onlyFollowUp =
    words.length > 0 &&
    words.every(
      (word) => FOLLOW_UP_WORDS.has(word) || /^\d+$/.test(word) || Object.hasOwn(NUMBER_WORDS, word),
    );
  if (!onlyFollowUp && !VERB_ON_ANSWER.test(query)) return undefined;
  const sentences = SENTENCES.exec(query);
  if (sentences?.[1] !== undefined) return { kind: "sentences", count: toCount(sentences[1]) };
  const wordLimit = WORDS.exec(query);
  if (wordLimit?.[1] !== undefined) return { kind: "words", count: toCount(wordLimit[1]) };
  if (BULLETS.test(query)) return { kind: "bullets" };
  if (SHORTER.test(query)) return { kind: "shorter" };
  const unsupported = UNSUPPORTED.exec(query);
  if (unsupported?.[1] !== undefined) return { kind: "unsupported", verb: unsupported[1].toLowerCase() };
  if (REPEAT.test(query)) return { kind: "repeat" };
  return undefined;
}

/**
 * A chat turn that refers to the previous answer ("Shorten that to one sentence") is answered from that
 * answer, read from the session's turns (`contextMeta.session`), without running a tool. Undefined when
 * the query stands on its own or the session has no earlier answer.
 */
export function planOfflineFollowUp(view: OfflineView): OfflineDecision | undefined {
  const request = getFollowUpRequest(view.query);
  if (request === undefined) return undefined;
  const previous = getPreviousAnswer(view);
  if (previous === undefined) return undefined;
  const rewritten = rewriteOffline(previous.text, request);
  const from = previous.turn === undefined ? "the earlier answer" : `the answer of turn ${previous.turn}`;
  if (rewritten === undefined) {
    const verb = request.kind === "unsupported" ? request.verb : "rewrite";
    const answer =
      `The offline model cannot ${verb} text: it composes answers from the agent's tools and is not a ` +
      `language model (add an LLM credential for that). The previous answer was:\n\n${previous.text}`;
    return finish(answer, `"${verb}" needs a language model: saying so and repeating ${from}.`);
  }
  return finish(rewritten, `The request refers to ${from}: ${describeRequest(request)}.`);
}

function finish(answer: string, rationale: string): OfflineDecision {
  return { action: { next_node: "final_response", args: { answer } }, rationale };
}

function describeRequest(request: FollowUpRequest): string {
  switch (request.kind) {
    case "sentences":
      return `keeping its first ${request.count === 1 ? "sentence" : `${request.count} sentences`}`;
    case "words":
      return `keeping its first ${request.count} words`;
    case "shorter":
      return "cutting it to about half";
    case "bullets":
      return "listing its sentences";
    case "repeat":
    case "unsupported":
      return "repeating it";
  }
}

/** The newest earlier turn's answer, or the digest of the summarized turns when none is verbatim. */
function getPreviousAnswer(view: OfflineView): { text: string; turn?: number } | undefined {
  const session = asRecord(view.context?.["session"]);
  const turns = Array.isArray(session?.["turns"]) ? (session["turns"] as unknown[]) : [];
  for (const entry of [...turns].reverse()) {
    const turn = asRecord(entry);
    const text = turn?.["assistant"];
    // A turn without an answer is written "(no answer: …)" (getSessionContextMeta).
    if (typeof text !== "string" || text.trim() === "" || text.startsWith("(no answer")) continue;
    return typeof turn?.["turn"] === "number" ? { text, turn: turn["turn"] } : { text };
  }
  const digest = asRecord(session?.["summary_of_turns"])?.["last_output_digest"];
  return typeof digest === "string" && digest.trim() !== "" ? { text: digest } : undefined;
}

function toCount(word: string): number {
  const lower = word.toLowerCase();
  return /^\d+$/.test(word) ? Number(word) : Object.hasOwn(NUMBER_WORDS, lower) ? NUMBER_WORDS[lower]! : 1;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
