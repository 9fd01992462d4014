// The vocabulary of the prompt_injection rules (injection-rules.ts): who the model is called, how someone
// talks to it, and what it is told. Each piece is a regex source meant to be combined; every repetition is
// bounded or ends where another character class starts, so that rules built of them stay linear.

export interface InjectionRule {
  id: string;
  weight: number;
  pattern: RegExp;
  /** Lower-case substrings, one of which must occur in the lower-cased text for the rule to run. */
  hints: readonly string[];
  /** A last check of the match (a URL's query must hold a placeholder). */
  accept?: (match: RegExpExecArray) => boolean;
}

/** Words that name a model and nothing else ("automated screening system", "AI shopping assistant"). */
export const MODEL_STRONG = String.raw`(?:ai|a\.i\.|llms?|large\s+language\s+models?|language\s+models?|chatbots?|gpt|chatgpt|claude|gemini|copilot|automated\s+(?:[a-z]+\s+)?(?:system|tool|reviewer|engine|agent|assistant|reader|screener|parser)s?|(?:auto-?)?reply\s+engines?|ai\s+(?:[a-z]+\s+)?(?:agents?|assistants?|models?|systems?|tools?|helpers?|reviewers?)|assistants?|bots?|models?)`;
/** Also a word that names people as often: an estate, insurance or support agent. */
export const MODEL = String.raw`(?:${MODEL_STRONG}|agent)`;
/** Substrings one of which every MODEL word contains. */
export const MODEL_HINTS = [
  "ai",
  "a.i.",
  "llm",
  "model",
  "chatbot",
  "gpt",
  "claude",
  "gemini",
  "copilot",
  "assistant",
  "agent",
  "bot",
  "automated",
  "engine",
];
export const EARLIER = String.raw`(?:previous|prior|above|earlier|preceding|foregoing|initial|original|existing|current|former|old|system|developer|safety|all|any|other)`;
export const ORDERS = String.raw`(?:instructions?|prompts?|directions?|rules|guidelines|guardrails|context|commands|constraints|polic(?:y|ies)|programming|directives?|orders|restrictions|filters|steps)`;
export const SENSITIVE = String.raw`(?:(?:conversation|chat)\s+(?:history|log|transcript)|(?:previous|prior|earlier|all)\s+(?:messages|conversation)|(?:the\s+)?user'?s\s+(?:data|messages|emails?|files|documents|contacts|contact\s+list|credentials|passwords?|address|details|information|history|session|cookies?|tokens?)|(?:api|access|secret|private)[\s_-]?(?:keys?|tokens?)|credentials|secrets|environment\s+variables|session\s+(?:tokens?|cookies?))`;
/**
 * Someone talking to the model at the start of a clause: "AI assistant:", "Assistant, …", "Note to the AI
 * model:", "To the language model analyzing this sheet —", "Copilot/AI agents triaging this:".
 */
const VOCATIVE_START = String.raw`(?<=(?:^|[\n.!?:;()\[\]>"'/*|#—–-])[ \t]{0,3}|,[ \t]{0,3}|\b(?:and|also|oh|btw|ps|now|so|actually|okay|ok)[ \t,]{1,3})`;
const VOCATIVE_OPENING = String.raw`(?:system\s+)?(?:(?:dear|hey|hi|hello|attention|note|message|instructions?|text|notice|reminder|important|warning|memo|hidden|secret|private|special|internal)[,\s]\s*){0,2}(?:(?:to|for)\s+)?(?:(?:the|any|all|every|whatever|whichever|each|my|an?)\s+)?`;
const VOCATIVE_END = String.raw`(?:\s+[A-Za-z'’]+){0,4}?(?:\s*\([^)\n]{0,40}\))?\s*(?:[:,!\])]|\s[—–]|\s-{1,4}>?)`;
/**
 * Someone talking to the model at the start of a clause: "AI assistant:", "Assistant, …", "Note to the AI
 * model:", "To the language model analyzing this sheet —", "Auditor AI —", "also ai, …".
 */
export const VOCATIVE = String.raw`${VOCATIVE_START}${VOCATIVE_OPENING}(?:[A-Za-z]+\s+)?${MODEL}s?${VOCATIVE_END}`;
export const VOCATIVE_STRONG = String.raw`${VOCATIVE_START}${VOCATIVE_OPENING}(?:[A-Za-z]+\s+)?${MODEL_STRONG}${VOCATIVE_END}`;
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
  hints: readonly string[],
  options: { flags?: string; accept?: (match: RegExpExecArray) => boolean } = {},
): InjectionRule {
  const pattern = new RegExp(source, options.flags ?? "gi");
  return { id, weight, pattern, hints, ...(options.accept ? { accept: options.accept } : {}) };
}

export const IGNORE_VERBS = [
  "ignor",
  "disregard",
  "forget",
  "overrid",
  "bypass",
  "skip",
  "discard",
  "abandon",
  "drop",
  "cancel",
];
