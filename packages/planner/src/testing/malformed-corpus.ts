// What weak models (GPT-OSS-120b, small Claude variants, local models) really send, each with the outcome
// the planner must reach. Run by `malformed-corpus.test.ts` and the `weak-models` benchmark
// (docs/normalization.md). The agent is `createCorpusPlanner`'s: search, route, get_weather, combine, send.
import type { MalformedCase } from "./malformed-corpus-runner.js";

const json = (value: unknown): string => JSON.stringify(value);
const ANSWER = "Open Settings > Security and choose Reset password.";
const final = (answer = ANSWER, extra: Record<string, unknown> = {}): string =>
  json({ next_node: "final_response", args: { answer, ...extra } });
const call = (next_node: string, args: Record<string, unknown>): string => json({ next_node, args });
const SEARCH = { q: "reset password" };
const searched = [{ tool: "search", args: SEARCH }];
const cut = (content: string) => ({ content, finishReason: "length" });

/** A final answer in a shape of its own: no call, no repair. */
function answerCase(
  id: string,
  kind: string,
  description: string,
  reply: string,
  answer = ANSWER,
): MalformedCase {
  return {
    id,
    kind,
    description,
    replies: [reply],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer },
  };
}

/** A search call in a shape of its own, then a clean answer: the call runs as meant, no repair. */
function callCase(id: string, kind: string, description: string, reply: string): MalformedCase {
  return {
    id,
    kind,
    description,
    replies: [reply, final()],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  };
}

export const MALFORMED_CORPUS: readonly MalformedCase[] = [
  // Answers in any shape.
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

  // Legacy and hybrid shapes.
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

  // JavaScript-ish objects and loose names.
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

  // Escaping.
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

  // Fences, prose around JSON, thinking tags.
  answerCase("fenced-json", "fences", "```json fence", "```json\n" + final() + "\n```"),
  answerCase("fenced-bare", "fences", "``` fence without a language", "```\n" + final() + "\n```"),
  answerCase("prose-before", "fences", "prose before the JSON", "Sure! Here is my reply:\n" + final()),
  answerCase("prose-after", "fences", "prose after the JSON", final() + "\n\nHope this helps!"),
  answerCase(
    "think-tags",
    "fences",
    "<think> block before the JSON",
    "<think>The user wants the reset steps.</think>\n" + final(),
  ),
  callCase(
    "fenced-call",
    "fences",
    "a fenced tool call",
    "I'll look it up.\n```json\n" + call("search", SEARCH) + "\n```",
  ),

  // JSON arrays and several actions.
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

  // A final_response without an answer: one re-ask, read in any shape.
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

  // Prose, repairs and what is left when they run out.
  {
    id: "prose-twice",
    kind: "prose",
    description: "the answer as plain text twice: the second is the answer",
    replies: ["To reset it, open Settings.", ANSWER],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, salvaged: true },
  },
  {
    id: "prose-then-json",
    kind: "prose",
    description: "plain text, then the JSON answer when asked",
    replies: [ANSWER, final()],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, salvaged: false },
  },
  {
    id: "prose-intent-then-call",
    kind: "prose",
    description: "'I will search' as text, then the call",
    replies: ["I will search the help center for that.", call("search", SEARCH), final()],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "broken-sources",
    kind: "exhaustion",
    description: "a whole answer string in a reply broken after it: taken at once",
    replies: ['{"next_node": "final_response", "args": {"answer": "' + ANSWER + '", "sources": [}'],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, salvaged: false },
  },
  {
    id: "fragment-then-fixed",
    kind: "exhaustion",
    description: "an answer without its closing quote, then the fixed reply",
    replies: ['{"next_node": "final_response", "args": {"answer": "' + ANSWER + "}}", final()],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, salvaged: false },
  },
  {
    id: "fragment-exhausted",
    kind: "exhaustion",
    description: "the same unclosed answer twice: the model is stuck, its text is kept, marked",
    replies: Array.from(
      { length: 3 },
      () => '{"next_node": "final_response", "args": {"answer": "' + ANSWER + "}}",
    ),
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, salvaged: true },
  },
  {
    id: "cut-answer-then-whole",
    kind: "truncated",
    description: "an answer cut at the token limit, then the whole one",
    replies: [cut(final("Open Settings > Sec")), final()],
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, salvaged: false },
  },
  {
    id: "cut-answer-exhausted",
    kind: "truncated",
    description: "an answer cut off mid-object three times: what it said is kept, marked",
    replies: Array.from(
      { length: 3 },
      () => '{"next_node": "final_response", "args": {"answer": "Open Settings > Security and choose',
    ),
    idealCalls: 1,
    usable: true,
    expect: { outcome: "answer", answer: "Open Settings > Security and choose", salvaged: true },
  },
  {
    id: "cut-call",
    kind: "truncated",
    description: "a tool call cut mid-arg: never run, asked again",
    replies: ['{"next_node": "search", "args": {"q": "reset pass', call("search", SEARCH), final()],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "cut-call-length",
    kind: "truncated",
    description: "a complete-looking call that stopped at the token limit: never run",
    replies: [cut(call("search", { q: "reset" })), call("search", SEARCH), final()],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "garbage-only",
    kind: "exhaustion",
    description: "nothing but cut-off calls: no_path, nothing ran",
    replies: Array.from({ length: 9 }, () => cut(call("search", SEARCH))),
    idealCalls: 2,
    usable: false,
    expect: { outcome: "no_path", tools: [] },
  },

  // Placeholders and arg-fill.
  {
    id: "placeholder-auto",
    kind: "placeholder",
    description: "intent <auto>: arg-fill asks for it",
    replies: [call("route", { intent: "<auto>", team: "support" }), json({ intent: "docs" }), final()],
    idealCalls: 2,
    usable: true,
    expect: {
      outcome: "answer",
      answer: ANSWER,
      tools: [{ tool: "route", args: { intent: "docs", team: "support" } }],
    },
  },
  {
    id: "placeholder-fill-value",
    kind: "placeholder",
    description: "q <FILL_VALUE>: arg-fill asks for it",
    replies: [call("search", { q: "<FILL_VALUE>" }), json(SEARCH), final()],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "placeholder-null-string",
    kind: "placeholder",
    description: 'q "null" as a string',
    replies: [call("search", { q: "null" }), json({ args: SEARCH }), final()],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "placeholder-description-echo",
    kind: "placeholder",
    description: "q echoes its description",
    replies: [call("search", { q: "What to search for" }), json(SEARCH), final()],
    idealCalls: 2,
    usable: true,
    expect: { outcome: "answer", answer: ANSWER, tools: searched },
  },
  {
    id: "placeholder-not-enum",
    kind: "placeholder",
    description: "intent unknown (not an option)",
    replies: [call("route", { intent: "unknown", team: "support" }), "<intent>billing</intent>", final()],
    idealCalls: 2,
    usable: true,
    expect: {
      outcome: "answer",
      answer: ANSWER,
      tools: [{ tool: "route", args: { intent: "billing", team: "support" } }],
    },
  },
  {
    id: "missing-enum-xml",
    kind: "placeholder",
    description: "intent missing, filled with an XML tag",
    replies: [call("route", { team: "support" }), "Sure: <intent>sales</intent>", final()],
    idealCalls: 2,
    usable: true,
    expect: {
      outcome: "answer",
      answer: ANSWER,
      tools: [{ tool: "route", args: { intent: "sales", team: "support" } }],
    },
  },
  {
    id: "optional-placeholder",
    kind: "placeholder",
    description: "an optional unit of ?: dropped, no call",
    replies: [call("get_weather", { city: "Paris", unit: "?" }), final("18 °C in Paris.")],
    idealCalls: 2,
    usable: true,
    expect: {
      outcome: "answer",
      answer: "18 °C in Paris.",
      tools: [{ tool: "get_weather", args: { city: "Paris" } }],
    },
  },
  {
    id: "required-and-optional-placeholders",
    kind: "placeholder",
    description: "city TBD and unit n/a",
    replies: [
      call("get_weather", { city: "TBD", unit: "n/a" }),
      json({ city: "Lyon" }),
      final("18 °C in Lyon."),
    ],
    idealCalls: 2,
    usable: true,
    expect: {
      outcome: "answer",
      answer: "18 °C in Lyon.",
      tools: [{ tool: "get_weather", args: { city: "Lyon" } }],
    },
  },
  {
    id: "arg-fill-unusable",
    kind: "placeholder",
    description: "city unknown, and unknown again when asked: a person is asked",
    replies: [call("get_weather", { city: "unknown" }), json({ city: "n/a" })],
    idealCalls: 1,
    usable: false,
    expect: { outcome: "pause", tools: [] },
  },
  {
    id: "arg-fill-prose",
    kind: "placeholder",
    description: "team missing, prose when asked: a person is asked",
    replies: [call("route", { intent: "docs" }), "I don't know which team handles this."],
    idealCalls: 1,
    usable: false,
    expect: { outcome: "pause", tools: [] },
  },
  {
    id: "arg-fill-no-pause",
    kind: "placeholder",
    description: "as above with pauseEnabled false: no_path naming the field",
    replies: [call("route", { intent: "docs", team: "?" }), "No idea."],
    idealCalls: 1,
    options: { pauseEnabled: false },
    usable: false,
    expect: { outcome: "no_path", tools: [] },
  },

  // Loose but safe task and parallel args.
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

  // Budgets end with an answer.
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
