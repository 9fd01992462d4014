// What weak models (GPT-OSS-120b, small Claude variants, local models) really send, each with the outcome
// the planner must reach. Run by `malformed-corpus.test.ts` and the `weak-models` benchmark
// (docs/normalization.md). The agent is `createCorpusPlanner`'s: search, route, get_weather, combine, send.
// The cases live in malformed-corpus/, one file per kind of reply; this list keeps their order.
import type { MalformedCase } from "./malformed-corpus-runner.js";
import { ANSWER_SHAPE_CASES } from "./malformed-corpus/answer-shapes.js";
import { LEGACY_SHAPE_CASES } from "./malformed-corpus/legacy-shapes.js";
import { LOOSE_OBJECT_CASES } from "./malformed-corpus/loose-objects.js";
import { ESCAPING_CASES } from "./malformed-corpus/escaping.js";
import { WRAPPED_JSON_CASES } from "./malformed-corpus/wrapped-json.js";
import { SEVERAL_ACTIONS_CASES } from "./malformed-corpus/several-actions.js";
import { MISSING_ANSWER_CASES } from "./malformed-corpus/missing-answer.js";
import { PROSE_AND_REPAIR_CASES } from "./malformed-corpus/prose-and-repairs.js";
import { PLACEHOLDER_CASES } from "./malformed-corpus/placeholders.js";
import { LOOSE_TASK_ARG_CASES } from "./malformed-corpus/loose-task-args.js";
import { BUDGET_ANSWER_CASES } from "./malformed-corpus/budget-answers.js";

export const MALFORMED_CORPUS: readonly MalformedCase[] = [
  ...ANSWER_SHAPE_CASES,
  ...LEGACY_SHAPE_CASES,
  ...LOOSE_OBJECT_CASES,
  ...ESCAPING_CASES,
  ...WRAPPED_JSON_CASES,
  ...SEVERAL_ACTIONS_CASES,
  ...MISSING_ANSWER_CASES,
  ...PROSE_AND_REPAIR_CASES,
  ...PLACEHOLDER_CASES,
  ...LOOSE_TASK_ARG_CASES,
  ...BUDGET_ANSWER_CASES,
];
