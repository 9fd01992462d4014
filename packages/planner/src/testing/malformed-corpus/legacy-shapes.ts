// Legacy and hybrid shapes.
import type { MalformedCase } from "../malformed-corpus-runner.js";
import { json, ANSWER, final, call, SEARCH, answerCase, callCase } from "./corpus-builders.js";

export const LEGACY_SHAPE_CASES: readonly MalformedCase[] = [
  answerCase(
    "legacy-terminal",
    "legacy",
    "thought + next_node null + raw_answer",
    json({ thought: "I know this.", next_node: null, args: { raw_answer: ANSWER }, plan: null, join: null }),
  ),
  answerCase(
    "legacy-string-args",
    "legacy",
    "next_node null with string args",
    json({ thought: "done", next_node: null, args: ANSWER }),
  ),
  answerCase(
    "hybrid-top-answer",
    "hybrid",
    "answer outside args",
    json({ next_node: "final_response", answer: ANSWER }),
  ),
  answerCase(
    "wrapper",
    "hybrid",
    "action wrapped in {action}",
    json({ action: { next_node: "final_response", args: { answer: ANSWER } } }),
  ),
  answerCase("double-encoded", "hybrid", "the action as a JSON string", json(final())),
  answerCase(
    "python-literal",
    "hybrid",
    "Python dict: single quotes, None, True",
    "{'next_node': 'final_response', 'args': {'answer': 'Use the reset link.', 'requires_followup': False, 'sources': None}}",
    "Use the reset link.",
  ),
  answerCase(
    "trailing-commas",
    "hybrid",
    "trailing commas",
    '{"next_node": "final_response", "args": {"answer": "Use the reset link.",},}',
    "Use the reset link.",
  ),
  callCase(
    "legacy-tool",
    "legacy",
    "thought beside a tool call",
    json({ thought: "search first", next_node: "search", args: SEARCH }),
  ),
  callCase(
    "hybrid-top-args",
    "hybrid",
    "args at the top level",
    json({ next_node: "search", q: "reset password" }),
  ),
  callCase(
    "args-json-string",
    "hybrid",
    "args as a JSON string",
    json({ next_node: "search", args: json(SEARCH) }),
  ),
  {
    id: "number-as-string",
    kind: "hybrid",
    description: "an integer arg sent as a string",
    replies: [call("search", { q: "reset password", limit: "5" }), final()],
    idealCalls: 2,
    usable: true,
    expect: {
      outcome: "answer",
      answer: ANSWER,
      tools: [{ tool: "search", args: { q: "reset password", limit: 5 } }],
    },
  },
  callCase(
    "openai-function",
    "tool_call_shape",
    "{name, arguments} with string arguments",
    json({ name: "search", arguments: json(SEARCH) }),
  ),
  callCase(
    "langchain-action",
    "tool_call_shape",
    "{action, action_input}",
    json({ action: "search", action_input: SEARCH }),
  ),
  callCase("tool-args", "tool_call_shape", "{tool, args}", json({ tool: "search", args: SEARCH })),
  callCase(
    "functions-prefix",
    "tool_call_shape",
    "next_node functions.search",
    call("functions.search", SEARCH),
  ),
  callCase("tool-name-case", "tool_call_shape", "next_node Search", call("Search", SEARCH)),
];
