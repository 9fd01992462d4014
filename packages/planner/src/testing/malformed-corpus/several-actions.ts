// JSON arrays and several actions.
import type { MalformedCase } from "../malformed-corpus-runner.js";
import { json, ANSWER, final, call, SEARCH, searched, answerCase } from "./corpus-builders.js";

export const SEVERAL_ACTIONS_CASES: readonly MalformedCase[] = [
  {
    id: "array-two-calls",
    kind: "action_array",
    description: "two tool calls in an array: the first runs, the second is offered back",
    replies: [
      json([
        { next_node: "search", args: SEARCH },
        { next_node: "search", args: { q: "2fa" } },
      ]),
      final(),
    ],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "array-call-then-answer",
    kind: "action_array",
    description: "a call and a premature answer in an array: the call runs",
    replies: [
      json([
        { next_node: "search", args: SEARCH },
        { next_node: "final_response", args: { answer: "?" } },
      ]),
      final(),
    ],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  answerCase(
    "array-one-answer",
    "action_array",
    "an array holding one answer",
    json([{ next_node: "final_response", args: { answer: ANSWER } }]),
  ),
  {
    id: "json-lines",
    kind: "action_array",
    description: "two actions on two lines",
    replies: [call("search", SEARCH) + "\n" + call("search", { q: "2fa" }), final()],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "fenced-array",
    kind: "action_array",
    description: "a fenced array of actions",
    replies: [
      "```json\n" +
        json([
          { next_node: "search", args: SEARCH },
          { next_node: "route", args: { intent: "docs", team: "help" } },
        ]) +
        "\n```",
      final(),
    ],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
];
