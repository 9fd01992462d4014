// JavaScript-ish objects and loose names.
import type { MalformedCase } from "../malformed-corpus-runner.js";
import { json, ANSWER, final, SEARCH, answerCase, callCase } from "./corpus-builders.js";

export const LOOSE_OBJECT_CASES: readonly MalformedCase[] = [
  callCase(
    "unquoted-keys",
    "js_literal",
    "keys without quotes",
    '{next_node: "search", args: {q: "reset password"}}',
  ),
  callCase(
    "js-comments",
    "js_literal",
    "comments inside the JSON",
    '{\n  // look it up first\n  "next_node": "search", /* docs */ "args": {"q": "reset password"}\n}',
  ),
  answerCase(
    "smart-quotes",
    "js_literal",
    "typographic quotes",
    "{\u201Cnext_node\u201D: \u201Cfinal_response\u201D, \u201Cargs\u201D: {\u201Canswer\u201D: \u201CUse the reset link.\u201D}}",
    "Use the reset link.",
  ),
  callCase(
    "next-node-camel",
    "hybrid",
    "nextNode instead of next_node",
    json({ nextNode: "search", args: SEARCH }),
  ),
  callCase(
    "node-key",
    "tool_call_shape",
    "{node, args} as a whole action",
    json({ node: "search", args: SEARCH }),
  ),
  callCase(
    "arguments-key",
    "hybrid",
    "next_node with arguments instead of args",
    json({ next_node: "search", arguments: SEARCH }),
  ),
  answerCase(
    "opcode-case",
    "answer_shape",
    "next_node FINAL_RESPONSE",
    json({ next_node: "FINAL_RESPONSE", args: { answer: ANSWER } }),
  ),
  answerCase(
    "opcode-spaces",
    "answer_shape",
    "next_node Final Response",
    json({ next_node: "Final Response", args: { answer: ANSWER } }),
  ),
  answerCase(
    "harmony-channel",
    "fences",
    "a harmony channel header before the JSON",
    "<|channel|>final<|message|>" + final() + "<|end|>",
  ),
  answerCase("eos-token", "fences", "an end-of-sequence token after the JSON", final() + "</s>"),
];
