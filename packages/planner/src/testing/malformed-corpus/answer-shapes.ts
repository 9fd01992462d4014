// Answers in any shape.
import type { MalformedCase } from "../malformed-corpus-runner.js";
import { json, ANSWER, final, answerCase } from "./corpus-builders.js";

export const ANSWER_SHAPE_CASES: readonly MalformedCase[] = [
  answerCase("bare-answer", "answer_shape", "only {answer}", json({ answer: ANSWER })),
  answerCase("bare-raw-answer", "answer_shape", "only {raw_answer}", json({ raw_answer: ANSWER })),
  answerCase("bare-final-answer", "answer_shape", "only {final_answer}", json({ final_answer: ANSWER })),
  answerCase(
    "args-answer",
    "answer_shape",
    "{args: {answer}} without next_node",
    json({ args: { answer: ANSWER } }),
  ),
  answerCase(
    "next-node-number",
    "answer_shape",
    "next_node 0 beside an answer",
    json({ next_node: 0, args: { answer: ANSWER } }),
  ),
  answerCase(
    "next-node-object",
    "answer_shape",
    "next_node an object",
    json({ next_node: { type: "final" }, args: { answer: ANSWER } }),
  ),
  answerCase(
    "next-node-empty",
    "answer_shape",
    'next_node ""',
    json({ next_node: "", args: { answer: ANSWER } }),
  ),
  answerCase(
    "answer-lines",
    "answer_shape",
    "the answer as a list of lines",
    json({
      next_node: "final_response",
      args: { answer: ["Open Settings > Security.", "Choose Reset password."] },
    }),
    "Open Settings > Security.\nChoose Reset password.",
  ),
  answerCase(
    "empty-answer-raw",
    "answer_shape",
    "raw_answer beside an empty answer",
    json({ next_node: "final_response", args: { answer: "", raw_answer: ANSWER } }),
  ),
  answerCase(
    "placeholder-answer-text",
    "answer_shape",
    "answer <answer> beside text",
    json({ next_node: "final_response", args: { answer: "<answer>", text: ANSWER } }),
  ),
  answerCase(
    "answer-object",
    "answer_shape",
    "answer as {text}",
    json({ next_node: "final_response", args: { answer: { text: ANSWER } } }),
  ),
  answerCase(
    "answer-number",
    "answer_shape",
    "answer as a number",
    json({ next_node: "final_response", args: { answer: 42 } }),
    "42",
  ),
  answerCase(
    "synonym-finish",
    "answer_shape",
    "next_node finish",
    json({ next_node: "finish", args: { answer: ANSWER } }),
  ),
  answerCase(
    "synonym-respond",
    "answer_shape",
    "next_node respond",
    json({ next_node: "respond", args: { answer: ANSWER } }),
  ),
  answerCase(
    "synonym-answer",
    "answer_shape",
    "next_node answer",
    json({ next_node: "answer", args: { text: ANSWER } }),
  ),
  answerCase(
    "args-string",
    "answer_shape",
    "final_response args as a plain string",
    json({ next_node: "final_response", args: ANSWER }),
  ),
  answerCase(
    "final-extra-keys",
    "answer_shape",
    "unknown keys and invalid confidence beside the answer",
    final(ANSWER, { mood: "sure", confidence: "high" }),
  ),
  answerCase(
    "sources-strings",
    "answer_shape",
    "sources as strings",
    final(ANSWER, { sources: ["https://help.example.com/reset-password"] }),
  ),
];
