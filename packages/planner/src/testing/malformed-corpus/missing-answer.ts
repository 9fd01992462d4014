// A final_response without an answer: one re-ask, read in any shape.
import type { MalformedCase } from "../malformed-corpus-runner.js";
import { json, ANSWER, final, call, SEARCH, searched } from "./corpus-builders.js";

export const MISSING_ANSWER_CASES: readonly MalformedCase[] = [
  ...(
    [
      ["reask-answer", json({ answer: ANSWER })],
      ["reask-prose", ANSWER],
      ["reask-response-fenced", "```json\n" + json({ response: ANSWER }) + "\n```"],
    ] as const
  ).map(([id, reply]): MalformedCase => ({
    id,
    kind: "answer_reask",
    description: `final_response with args {} , then ${id.slice("reask-".length)}`,
    replies: [json({ next_node: "final_response", args: {} }), reply],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER },
  })),
  {
    id: "thought-only",
    kind: "thought_only",
    description: "only a thought (legacy), then the answer as prose",
    replies: [json({ thought: "The user needs the reset steps; I know them." }), ANSWER],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER },
  },
  {
    id: "thought-only-null",
    kind: "thought_only",
    description: "a thought with next_node null and no args, then {answer}",
    replies: [json({ thought: "Done.", next_node: null }), json({ answer: ANSWER })],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER },
  },
  {
    id: "placeholder-answer",
    kind: "answer_reask",
    description: 'an answer of "TBD", then a real one',
    replies: [final("TBD"), final()],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER },
  },
  {
    id: "hopeless-finish",
    kind: "answer_reask",
    description: "no answer, then {}: finishes with the latest result after two calls",
    replies: [call("search", SEARCH), json({ next_node: "final_response", args: {} }), "{}"],
    idealCalls: 2,
    usable: false,
    expect: { outcome: "answer", answer: "help.example.com/reset-password", tools: searched },
  },
];
