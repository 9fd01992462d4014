// The vocabulary of the prompt_injection rules (injection-rules.ts): who the model is called, how someone
// talks to it, and what it is told. Each piece is a regex source meant to be combined; every repetition is
// bounded or ends where another character class starts, so that rules built of them stay linear.

export interface InjectionRule {
  id: string;
  weight: number;
  /** Global: the rule over a whole text. */
  pattern: RegExp;
  /** Sticky: the rule at one place, where one of its `starts` is. */
  sticky: RegExp;
  /**
   * Lower-case words that every match starts with: a word counts whole (`ai` in "AI", not in "aim" or
   * "said"), a word ending in `*` at the start of a word (`ignor*`: "ignorez"), a symbol (`<|`, `##`)
   * anywhere.
   */
  starts: readonly string[];
  /** A cheaper pattern that must match where this one is tried (sticky), or it is not tried there. */
  gate?: RegExp;
  /** A last check of the match (a URL's query must hold a placeholder). */
  accept?: (match: RegExpExecArray) => boolean;
}

/** Words that name a model and nothing else ("automated screening system", "AI shopping assistant"). */
export const MODEL_STRONG = String.raw`(?:ai|a\.i\.|llms?|large\s+language\s+models?|language\s+models?|chatbots?|gpt|chatgpt|claude|gemini|copilot|automated\s+(?:[a-z]+\s+)?(?:system|tool|reviewer|engine|agent|assistant|reader|screener|parser)s?|(?:auto-?)?reply\s+engines?|ai\s+(?:[a-z]+\s+)?(?:agents?|assistants?|models?|systems?|tools?|helpers?|reviewers?)|assistants?|bots?|models?)`;
/** Also a word that names people as often: an estate, insurance or support agent. */
export const MODEL = String.raw`(?:${MODEL_STRONG}|agent)`;
/** The words a MODEL_STRONG match starts with. */
export const MODEL_STRONG_STARTS = [
  "ai", "ais", "a.i.", "llm", "llms", "large", "language", "chatbot", "chatbots", "gpt", "chatgpt", "claude", "gemini", "copilot",
  "automated", "reply", "auto", "autoreply", "assistant", "assistants", "bot", "bots", "model", "models",
]; // prettier-ignore
/** The words a MODEL match starts with. */
export const MODEL_STARTS = [...MODEL_STRONG_STARTS, "agent", "agents"];
export const EARLIER = String.raw`(?:previous|prior|above|earlier|preceding|foregoing|initial|original|existing|current|former|old|system|developer|safety|all|any|other)`;
export const ORDERS = String.raw`(?:instructions?|prompts?|directions?|rules|guidelines|guardrails|context|commands|constraints|polic(?:y|ies)|programming|directives?|orders|restrictions|filters|steps)`;
export const SENSITIVE = String.raw`(?:(?:conversation|chat)\s+(?:history|log|transcript)|(?:previous|prior|earlier|all)\s+(?:messages|conversation)|user'?s\s+(?:data|messages|emails?|files|documents|contacts|contact\s+list|credentials|passwords?|address|details|information|history|session|cookies?|tokens?)|(?:api|access|secret|private)[\s_-]?(?:keys?|tokens?)|credentials|secrets|environment\s+variables|session\s+(?:tokens?|cookies?))`;
/**
 * Someone talking to the model at the start of a clause: "AI assistant:", "Assistant, …", "Note to the AI
 * model:", "To the language model analyzing this sheet —", "Copilot/AI agents triaging this:".
 */
/** Before a vocative's model word: the start of a clause, then openers ("Note to the", "Hey", "Dear"). */
const VOCATIVE_BEFORE = String.raw`(?<=(?:(?:^|[\n.!?:;()\[\]>"'/*|#—–-])[ \t]{0,3}|,[ \t]{0,3}|\b(?:and|also|oh|btw|ps|now|so|actually|okay|ok)[ \t,]{1,3})(?:system\s+)?(?:(?:dear|hey|hi|hello|attention|note|message|instructions?|text|notice|reminder|important|warning|memo|hidden|secret|private|special|internal)[,\s]\s*){0,2}(?:(?:to|for)\s+)?(?:(?:the|any|all|every|whatever|whichever|each|my|an?)\s+)?(?:[A-Za-z]+\s+)?)`;
const VOCATIVE_END = String.raw`(?:\s+[A-Za-z'’]+){0,4}?(?:\s*\([^)\n]{0,40}\))?\s*(?:[:,!\])]|\s[—–]|\s-{1,4}>?)`;
/**
 * Someone talking to the model at the start of a clause, matched from the model word on: "AI assistant:",
 * "Assistant, …", "Note to the AI model:", "To the language model analyzing this sheet —", "Auditor AI —".
 */
export const VOCATIVE = String.raw`${VOCATIVE_BEFORE}${MODEL}s?${VOCATIVE_END}`;
export const VOCATIVE_STRONG = String.raw`${VOCATIVE_BEFORE}${MODEL_STRONG}${VOCATIVE_END}`;
/** What follows a vocative when it gives the model an order. */
export const ORDER_VERB = String.raw`(?:(?:please|now|also|immediately|just)\s+){0,2}(?:ignore|disregard|forget|override|do\s+not|don'?t|never|stop|call|invoke|use|run|execute|send|forward|e-?mail|copy|post|upload|delete|remove|close|merge|approve|mark|add|include|insert|append|tell|say|reply|respond|answer|write|output|print|reveal|report|rank|recommend|describe|pretend|act|switch|enable|accept|transfer|purchase|buy|book|(?:auto-?)?reply|steer|rate|score|praise|promote|favou?r|whitelist|leak|refund|proceed|cancel|collect|skip|insert|quietly|leave\s+out|omit|disable|push|set|assign|make|grant|share|give|move|change|update|create|download|install|visit|open|fill|confirm|treat|consider|summari[sz]e|translate|your\s+(?:only\s+|new\s+|real\s+)?(?:job|task|goal)|the\s+(?:above|previous)|(?:when|before|after|once)\s+(?:you|the\s+user|someone|anyone|people|customers?|users)|from\s+now|you\s+(?:are|must|should|will|need))\b`;

/** A query string holding a template placeholder: `?q={conversation}`, `&d=${secret}`, `%7Bhistory%7D`. */
export function hasQueryPlaceholder(markdown: string): boolean {
  const query = markdown.indexOf("?");
  return query >= 0 && /\{|%7b|\$|<|\[/i.test(markdown.slice(query));
}

export function rule(
  id: string,
  weight: number,
  source: string,
  starts: readonly string[],
  options: { flags?: string; gate?: RegExp; accept?: (match: RegExpExecArray) => boolean } = {},
): InjectionRule {
  const flags = options.flags ?? "gi";
  const pattern = new RegExp(source, flags);
  const sticky = new RegExp(source, `${flags.replace("g", "")}y`);
  const { gate, accept } = options;
  return { id, weight, pattern, sticky, starts, ...(gate ? { gate } : {}), ...(accept ? { accept } : {}) };
}

/** A sticky test that one of IGNORE_VERBS is followed by a space: the gate of the rules that start so. */
export const IGNORE_GATE =
  /\b(?:ignore|disregard|forget|override|bypass|skip|discard|abandon|drop|cancel)\s/iy;

/** A sticky test that someone talks to the model here: the gate of every rule that starts with a vocative. */
export const VOCATIVE_GATE = new RegExp(VOCATIVE, "imy");

/** The words the rules that override orders start with (whole words). */
export const IGNORE_VERBS = [
  "ignore",
  "disregard",
  "forget",
  "override",
  "bypass",
  "skip",
  "discard",
  "abandon",
  "drop",
  "cancel",
];
