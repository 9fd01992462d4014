// Fences, prose around JSON, thinking tags.
import type { MalformedCase } from "../malformed-corpus-runner.js";
import { final, call, SEARCH, answerCase, callCase } from "./corpus-builders.js";

export const WRAPPED_JSON_CASES: readonly MalformedCase[] = [
  answerCase("fenced-json", "fences", "```json fence", "```json\n" + final() + "\n```"),
  answerCase("fenced-bare", "fences", "``` fence without a language", "```\n" + final() + "\n```"),
  answerCase("prose-before", "fences", "prose before the JSON", "Sure! Here is my reply:\n" + final()),
  answerCase("prose-after", "fences", "prose after the JSON", final() + "\n\nHope this helps!"),
  answerCase(
    "think-tags",
    "fences",
    "<think> block before the JSON",
    "<think>The user wants the reset steps.</think>\n" + final(),
  ),
  callCase(
    "fenced-call",
    "fences",
    "a fenced tool call",
    "I'll look it up.\n```json\n" + call("search", SEARCH) + "\n```",
  ),
];
