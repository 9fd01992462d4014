// Budgets end with an answer.
import type { MalformedCase } from "../malformed-corpus-runner.js";
import { ANSWER, final, call, SEARCH, searched } from "./corpus-builders.js";

export const BUDGET_ANSWER_CASES: readonly MalformedCase[] = [
  {
    id: "hop-budget-answer",
    kind: "budget",
    description: "a second call past the hop budget: one tool-less turn to answer",
    replies: [call("search", SEARCH), call("search", { q: "2fa" }), final()],
    idealCalls: 3,
    options: { hopBudget: 1 },
    usable: true,
    expect: { outcome: "budget_answer", answer: ANSWER, tools: searched },
  },
  {
    id: "max-iters-prose",
    kind: "budget",
    description: "maxIters reached: the answer turn's prose is the answer",
    replies: [call("search", SEARCH), ANSWER],
    idealCalls: 2,
    options: { maxIters: 1 },
    usable: true,
    expect: { outcome: "budget_answer", answer: ANSWER, salvaged: true, tools: searched },
  },
];
