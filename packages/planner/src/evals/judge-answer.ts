import type { TestFailure } from "@waddle/protocol";
import { z } from "zod";
import type { LlmClient } from "../llm/llm-client.js";
import { parseLlmJson } from "../llm/parse-llm-json.js";

const JudgeVerdict = z.object({ pass: z.boolean(), reason: z.string().max(2_000).default("") });

/** What grading an answer came to: a failure, a pass, or skipped with why. */
export type JudgeOutcome =
  { kind: "passed" } | { kind: "failed"; failure: TestFailure } | { kind: "skipped"; reason: string };

const SYSTEM_PROMPT =
  "You grade the answer an AI agent gave to a user's query against the grader's criteria. " +
  'Reply with JSON only: {"pass": true|false, "reason": "one sentence"}.';

/**
 * Asks `llm` whether `answer` meets `criteria`. Skipped on the offline model (it cannot grade) and when no
 * model is given; a reply that is not the verdict JSON fails the check with what the model said.
 */
export async function judgeAnswer(options: {
  llm: LlmClient | undefined;
  criteria: string;
  query: string;
  answer: unknown;
  signal?: AbortSignal;
}): Promise<JudgeOutcome> {
  const { llm } = options;
  if (llm === undefined) return { kind: "skipped", reason: "no model to judge with" };
  if (llm.offline === true)
    return { kind: "skipped", reason: "the offline model cannot grade answers: set a model with a key" };
  const result = await llm.complete({
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      {
        role: "user",
        content: JSON.stringify({ criteria: options.criteria, query: options.query, answer: options.answer }),
      },
    ],
    responseFormat: "json_object",
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const verdict = JudgeVerdict.safeParse(parseLlmJson(result.content));
  if (!verdict.success) {
    return {
      kind: "failed",
      failure: {
        check: "answer.judge",
        expected: options.criteria,
        actual: result.content.slice(0, 500),
        message: "The judge's reply was not a verdict ({pass, reason}).",
      },
    };
  }
  if (verdict.data.pass) return { kind: "passed" };
  return {
    kind: "failed",
    failure: {
      check: "answer.judge",
      expected: options.criteria,
      actual: options.answer ?? null,
      message: `The judge failed the answer: ${verdict.data.reason || "no reason given"}`,
    },
  };
}
