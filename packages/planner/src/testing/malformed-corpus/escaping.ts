// Escaping.
import type { MalformedCase } from "../malformed-corpus-runner.js";
import { ANSWER, final, answerCase } from "./corpus-builders.js";

export const ESCAPING_CASES: readonly MalformedCase[] = [
  answerCase(
    "raw-newlines",
    "escaping",
    "raw newlines inside the answer",
    '{"next_node": "final_response", "args": {"answer": "Open Settings.\nChoose Reset password."}}',
    "Open Settings.\nChoose Reset password.",
  ),
  answerCase(
    "raw-tabs",
    "escaping",
    "a raw tab inside the answer",
    '{"next_node": "final_response", "args": {"answer": "Step 1:\tOpen Settings."}}',
    "Step 1:\tOpen Settings.",
  ),
  answerCase(
    "inner-quotes",
    "escaping",
    "unescaped quotes inside the answer",
    '{"next_node": "final_response", "args": {"answer": "Click "Reset password" in Settings."}}',
    'Click "Reset password" in Settings.',
  ),
  answerCase(
    "odd-quote",
    "escaping",
    "one unescaped inch mark, then prose",
    '{"next_node": "final_response", "args": {"answer": "Use the 5" screen layout."}} Let me know!',
    'Use the 5" screen layout.',
  ),
  answerCase(
    "quote-comma",
    "escaping",
    "a quoted word followed by a comma",
    '{"next_node": "final_response", "args": {"answer": "Click "Reset", then confirm."}}',
    'Click "Reset", then confirm.',
  ),
  {
    id: "args-newline",
    kind: "escaping",
    description: "a raw newline inside a tool arg",
    replies: ['{"next_node": "search", "args": {"q": "reset\npassword"}}', final()],
    idealCalls: 2,
    usable: true,
    expect: {
      outcome: "answer",
      answer: ANSWER,
      tools: [{ tool: "search", args: { q: "reset\npassword" } }],
    },
  },
  {
    id: "args-inner-quotes",
    kind: "escaping",
    description: "unescaped quotes inside a tool arg",
    replies: ['{"next_node": "search", "args": {"q": "the "reset password" page"}}', final()],
    idealCalls: 2,
    usable: true,
    expect: {
      outcome: "answer",
      answer: ANSWER,
      tools: [{ tool: "search", args: { q: 'the "reset password" page' } }],
    },
  },
];
