// Loose but safe task and parallel args.
import type { MalformedCase } from "../malformed-corpus-runner.js";
import { json, ANSWER, final, SEARCH, searched } from "./corpus-builders.js";

export const LOOSE_TASK_ARG_CASES: readonly MalformedCase[] = [
  {
    id: "task-no-name",
    kind: "task_args",
    description: "a subagent task without name, merge strategy human-gated",
    replies: [
      json({
        next_node: "task",
        args: { mode: "subagent", query: "Collect the reset docs", merge_strategy: "human-gated" },
      }),
      final(),
    ],
    idealCalls: 2,
    usable: true,
    expect: {
      outcome: "answer",
      answer: ANSWER,
      task: { name: "Collect the reset docs", merge_strategy: "HUMAN_GATED" },
    },
  },
  {
    id: "task-tool-spacing",
    kind: "task_args",
    description: "a tool job, merge strategy 'Human Gated', group_report ALL",
    replies: [
      json({
        next_node: "task.tool",
        args: { tool: "search", tool_args: SEARCH, merge_strategy: "Human Gated", group_report: "ALL" },
      }),
      final(),
    ],
    idealCalls: 2,
    usable: true,
    expect: {
      outcome: "answer",
      answer: ANSWER,
      task: { name: "search job", merge_strategy: "HUMAN_GATED", group_report: "all" },
    },
  },
  {
    id: "parallel-step-no-node",
    kind: "parallel_args",
    description: "a step without node beside a valid one",
    replies: [
      json({
        next_node: "parallel",
        args: { steps: [{ node: "search", args: SEARCH }, { args: { q: "2fa" } }] },
      }),
      final(),
    ],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "parallel-step-string",
    kind: "parallel_args",
    description: "a step that is a string",
    replies: [
      json({ next_node: "parallel", args: { steps: ["search", { node: "search", args: SEARCH }] } }),
      final(),
    ],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "parallel-join-no-node",
    kind: "parallel_args",
    description: "a join without node",
    replies: [
      json({
        next_node: "parallel",
        args: { steps: [{ node: "search", args: SEARCH }], join: { inject: { results: "$results" } } },
      }),
      final(),
    ],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "parallel-inject-mapping",
    kind: "parallel_args",
    description: "inject: {mapping: {...}}",
    replies: [
      json({
        next_node: "parallel",
        args: {
          steps: [
            { node: "search", args: SEARCH },
            { node: "get_weather", args: { city: "Paris" } },
          ],
          join: { node: "combine", inject: { mapping: { results: "$results" } } },
        },
      }),
      final(),
    ],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER },
  },
  {
    id: "legacy-plan",
    kind: "legacy",
    description: "a legacy top-level plan with {tool, arguments} steps",
    replies: [
      json({
        thought: "fan out",
        next_node: null,
        plan: [{ tool: "search", arguments: SEARCH }],
        join: null,
      }),
      final(),
    ],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "plan-synonym",
    kind: "hybrid",
    description: "next_node plan with steps",
    replies: [json({ next_node: "plan", args: { steps: [{ node: "search", args: SEARCH }] } }), final()],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
];
