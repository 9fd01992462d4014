import { describe, expect, it } from "vitest";
import { interpretReply } from "./interpret-reply.js";
import { normalizeActionDetailed } from "./normalize-action.js";
import { extractAnswerFragment, getProseAnswer, readAnswerReply } from "./read-answer-reply.js";
import { isPlaceholderValue } from "./placeholders.js";

const options = { format: "auto" as const, toolNames: new Set(["search", "route"]) };

describe("answers in any shape", () => {
  it.each([
    ['{"answer": "Paris"}', "bare_answer"],
    ['{"raw_answer": "Paris"}', "bare_answer"],
    ['{"args": {"answer": "Paris"}}', "answer_without_next_node"],
    ['{"next_node": 7, "args": {"answer": "Paris"}}', "answer_without_next_node"],
    ['{"next_node": "", "args": {"answer": "Paris"}}', "answer_without_next_node"],
    ['{"next_node": "final_response", "args": {"answer": "", "raw_answer": "Paris"}}', "synonym:raw_answer"],
    ['{"next_node": "final_response", "args": {"answer": "<answer>", "text": "Paris"}}', "synonym:text"],
  ])("%s is a final answer (%s)", (reply, rule) => {
    const result = normalizeActionDetailed(reply, options);
    expect(result.action).toMatchObject({ next_node: "final_response", args: { answer: "Paris" } });
    expect(result.rewrites).toContain(rule);
  });

  it("joins an answer given as lines and unwraps one given as an object", () => {
    expect(
      normalizeActionDetailed({ next_node: "final_response", args: { answer: ["One.", "Two."] } }).action
        .args,
    ).toEqual({ answer: "One.\nTwo." });
    expect(
      normalizeActionDetailed({ next_node: "final_response", args: { answer: { text: "Hi" } } }).action.args,
    ).toEqual({ answer: "Hi" });
  });

  it("keeps an unknown tool-call shape a tool call, and an object without answer or tool invalid", () => {
    expect(normalizeActionDetailed('{"name": "search", "arguments": {"q": "x"}}', options).action).toEqual({
      next_node: "search",
      args: { q: "x" },
    });
    expect(() => normalizeActionDetailed('{"hello": "world"}', options)).toThrow(/next_node/);
  });
});

describe("what weak models do to JSON", () => {
  it("escapes raw newlines and unescaped quotes inside strings", () => {
    const newline = interpretReply('{"next_node": "final_response", "args": {"answer": "a\nb"}}', options);
    expect(newline).toMatchObject({ ok: true, action: { args: { answer: "a\nb" } }, verbatim: false });
    expect(newline.ok && newline.notes.map((note) => note.rule)).toEqual(["control_chars"]);
    const quotes = interpretReply(
      '{"next_node": "final_response", "args": {"answer": "He said "hi"."}}',
      options,
    );
    expect(quotes).toMatchObject({ ok: true, action: { args: { answer: 'He said "hi".' } } });
    const odd = interpretReply('{"next_node":"final_response","args":{"answer":"A 5" pipe"}} Done.', options);
    expect(odd).toMatchObject({ ok: true, action: { args: { answer: 'A 5" pipe' } } });
  });

  it("runs the first of a JSON array of actions and offers the rest as alternates", () => {
    const reply = interpretReply(
      '[{"next_node": "search", "args": {"q": "a"}}, {"next_node": "search", "args": {"q": "b"}}, 3]',
      options,
    );
    expect(reply).toMatchObject({
      ok: true,
      action: { next_node: "search", args: { q: "a" } },
      alternates: [{ next_node: "search", args: { q: "b" } }],
      notes: [{ rule: "action_array", detail: expect.stringMatching(/1 other action is offered back/) }],
    });
    const fenced = interpretReply(
      '```json\n[{"next_node": "final_response", "args": {"answer": "x"}}]\n```',
      options,
    );
    expect(fenced).toMatchObject({ ok: true, action: { next_node: "final_response" } });
    expect(interpretReply("[1, 2]", options)).toMatchObject({ ok: false, code: "unparseable_action" });
  });

  it("offers the other whole actions of a reply with several as alternates", () => {
    const reply = interpretReply(
      '{"next_node": "search", "args": {"q": "a"}}\n{"next_node": "final_response", "args": {"answer": "x"}}',
      options,
    );
    expect(reply).toMatchObject({
      ok: true,
      action: { next_node: "search" },
      alternates: [{ next_node: "final_response" }],
    });
  });
});

describe("loose but safe task and parallel args", () => {
  it("derives a task's name and reads merge strategies in any spelling", () => {
    const subagent = normalizeActionDetailed({
      next_node: "task.subagent",
      args: { query: "Compare the Q3 reports of every region\nand list gaps", merge_strategy: "human-gated" },
    });
    expect(subagent.action.args).toEqual({
      name: "Compare the Q3 reports of every region",
      query: "Compare the Q3 reports of every region\nand list gaps",
      merge_strategy: "HUMAN_GATED",
    });
    expect(subagent.rewrites).toEqual(["task_name_derived", "merge_strategy_spelling"]);
    const tool = normalizeActionDetailed({
      next_node: "task",
      args: {
        mode: "job",
        tool: "search",
        args: { q: 1 },
        merge_strategy: "Append",
        group_merge_strategy: "Human Gated",
        group_report: "ALL",
      },
    });
    expect(tool.action).toEqual({
      next_node: "task.tool",
      args: {
        name: "search job",
        tool: "search",
        tool_args: { q: 1 },
        merge_strategy: "APPEND",
        group_merge_strategy: "HUMAN_GATED",
        group_report: "all",
      },
    });
  });

  it("drops malformed parallel steps when a valid one remains, a join without node, and reads inject.mapping", () => {
    const result = normalizeActionDetailed({
      next_node: "parallel",
      args: {
        steps: [{ node: "search", args: { q: "a" } }, { args: { q: "b" } }, "search"],
        join: { args: {} },
      },
    });
    expect(result.action.args).toEqual({ steps: [{ node: "search", args: { q: "a" } }] });
    expect(result.droppedSteps).toEqual([
      { index: 1, step: { args: { q: "b" } } },
      { index: 2, step: "search" },
    ]);
    expect(result.notes.map((note) => note.rule)).toEqual(["parallel_step_dropped", "join_dropped"]);
    const mapped = normalizeActionDetailed({
      next_node: "parallel",
      args: {
        steps: [{ node: "search" }],
        join: { node: "merge", inject: { mapping: { results: "$results" } } },
      },
    });
    expect(mapped.action.args.join).toEqual({ node: "merge", inject: { results: "$results" } });
    // With no valid step the plan is left as it is, for the checker to refuse.
    expect(
      normalizeActionDetailed({ next_node: "parallel", args: { steps: [{ args: {} }] } }).action.args,
    ).toEqual({
      steps: [{ args: {} }],
    });
  });
});

describe("the answer re-ask accepts whatever shape the answer comes in", () => {
  it.each([
    ['{"next_node": "final_response", "args": {"answer": "42"}}', "42"],
    ['{"answer": "42"}', "42"],
    ['{"raw_answer": "42"}', "42"],
    ['{"text": "42"}', "42"],
    ['{"response": "42"}', "42"],
    ['{"content": "42"}', "42"],
    ['{"answer": "<answer>", "text": "42"}', "42"],
    ['```json\n{"response": "42"}\n```', "42"],
    ["The answer is 42.", "The answer is 42."],
    ["Answer: 42", "42"],
    ["**Final answer:** 42", "42"],
  ])("%s", (reply, expected) => {
    expect(readAnswerReply(reply, options)).toMatchObject({ kind: "answer", answer: expected });
  });

  it("gives back a whole other action, and nothing for placeholders or empty JSON", () => {
    expect(readAnswerReply('{"next_node": "search", "args": {"q": "x"}}', options)).toMatchObject({
      kind: "action",
      action: { next_node: "search" },
    });
    expect(readAnswerReply('{"answer": "TBD"}', options)).toMatchObject({ kind: "none" });
    expect(readAnswerReply('{"next_node": "final_response", "args": {}}', options)).toMatchObject({
      kind: "none",
    });
    expect(readAnswerReply("   ", options)).toMatchObject({ kind: "none" });
  });

  it.each([
    '{"answer": "n/a"}',
    "unknown",
    "TBD",
    "<answer>",
    '{"text": "?", "content": "N/A"}',
    "```\nunknown\n```",
  ])("takes the placeholder reply %s as no answer", (reply) => {
    expect(readAnswerReply(reply, options)).toMatchObject({ kind: "none" });
  });

  it("skips a placeholder for the next key, and keeps a real answer that mentions one", () => {
    expect(readAnswerReply('{"answer": "n/a", "message": "It is 42."}', options)).toMatchObject({
      kind: "answer",
      answer: "It is 42.",
    });
    expect(readAnswerReply("The status is unknown.", options)).toMatchObject({
      kind: "answer",
      answer: "The status is unknown.",
    });
  });

  it("keeps answer as the answer and raw_answer beside it under extra", () => {
    expect(readAnswerReply('{"answer": "A", "raw_answer": "B"}', options)).toMatchObject({
      kind: "answer",
      answer: "A",
      args: { extra: { raw_answer: "B" } },
    });
  });

  it.each(['{"answer": "x"', '{"answer": "x', '{"next_node": "final_response", "args": {"answer": "x"}'])(
    "takes the cut-off JSON reply %s as no answer (PenguiFlow: it parses to nothing), its text kept aside",
    (reply) => {
      expect(readAnswerReply(reply, options)).toMatchObject({
        kind: "cut_off",
        fragment: { answer: "x", note: { rule: "answer_fragment" } },
      });
    },
  );

  it("takes a reply stopped at the token limit as cut off, even when its JSON parses", () => {
    expect(readAnswerReply('{"answer": "x"}', { ...options, finishReason: "length" })).toMatchObject({
      kind: "cut_off",
      fragment: { answer: "x" },
    });
    expect(readAnswerReply('{"next_node": "search", "args": {"q": "x', options)).toEqual({
      kind: "cut_off",
      reason: expect.stringMatching(/cut off/),
    });
  });

  it("still reads a malformed but whole reply as the model meant it", () => {
    expect(readAnswerReply("{'answer': 'It is 42.'}", options)).toMatchObject({
      kind: "answer",
      answer: "It is 42.",
    });
    expect(readAnswerReply('{"answer": "He said "hi" twice."}', options)).toMatchObject({
      kind: "answer",
      answer: 'He said "hi" twice.',
    });
  });

  it("keeps the answer text of a reply cut off at the token limit aside, marked as such", () => {
    expect(
      readAnswerReply('{"next_node": "final_response", "args": {"answer": "Cats are small', {
        ...options,
        finishReason: "length",
      }),
    ).toMatchObject({
      kind: "cut_off",
      fragment: { answer: "Cats are small", note: { rule: "answer_fragment" } },
    });
  });
});

describe("helpers", () => {
  it("extracts the answer fragment of a malformed reply", () => {
    expect(
      extractAnswerFragment('{"next_node": "final_response", "args": {"answer": "He said "hi", bye"}}'),
    ).toBe('He said "hi", bye');
    expect(extractAnswerFragment('{"args": {"answer": "line\\none", "sources": [1]}}')).toBe("line\none");
    expect(extractAnswerFragment('{"args": {"answer": "Partial ans')).toBe("Partial ans");
    expect(extractAnswerFragment('{"answer": "x"')).toBe("x");
    expect(extractAnswerFragment('{"answer": "x" ')).toBe("x");
    expect(extractAnswerFragment('{"answer": "Say \\"hi\\"')).toBe('Say "hi"');
    expect(extractAnswerFragment('{"answer": "back\\\\"')).toBe("back\\");
    expect(extractAnswerFragment('{"args": {"q": "x"}}')).toBeUndefined();
  });

  it("takes prose as an answer only when it holds no JSON and says something", () => {
    expect(getProseAnswer("```\nPlain fenced text\n```")?.answer).toBe("Plain fenced text");
    expect(getProseAnswer('Let me call {"next_node": "search"}')).toBeUndefined();
    expect(getProseAnswer("...")).toBeUndefined();
  });

  it("knows placeholders case-insensitively, and an enum option is never one", () => {
    for (const value of ["<auto>", "<FILL_VALUE>", "UNKNOWN", "n/a", "TBD", "?", "null", "{{query}}"]) {
      expect(isPlaceholderValue(value), value).toBe(true);
    }
    expect(isPlaceholderValue("unknown", { name: "status", options: ["ok", "unknown"] })).toBe(false);
    expect(
      isPlaceholderValue("The city to search", { name: "city", description: "The city to search." }),
    ).toBe(true);
    expect(isPlaceholderValue("Paris", { name: "city", description: "The city to search." })).toBe(false);
  });
});

describe("JavaScript-ish objects and loose names", () => {
  it.each([
    ['{next_node: "search", args: {q: "x"}}', "unquoted_keys"],
    ['{"next_node": "search", // why\n "args": {"q": "x"}}', "js_comments"],
    [
      "{\u201Cnext_node\u201D: \u201Csearch\u201D, \u201Cargs\u201D: {\u201Cq\u201D: \u201Cx\u201D}}",
      "smart_quotes",
    ],
    ['{"nextNode": "search", "args": {"q": "x"}}', "next_node_alias"],
    ['{"next_node": "search", "arguments": {"q": "x"}}', "args_alias"],
    ['{"node": "search", "args": {"q": "x"}}', "tool_call_shape"],
    ['{"next_node": "functions.search", "args": {"q": "x"}}', "tool_name_spelling"],
    ['{"next_node": "SEARCH", "args": {"q": "x"}}', "tool_name_spelling"],
  ])("%s", (reply, rule) => {
    const result = interpretReply(reply, options);
    expect(result).toMatchObject({ ok: true, action: { next_node: "search", args: { q: "x" } } });
    expect(result.ok && result.notes.map((note) => note.rule)).toContain(rule);
  });

  it("reads opcodes in any case or spacing, and never guesses between two tools", () => {
    expect(interpretReply('{"next_node": "Final Response", "args": {"answer": "a"}}', options)).toMatchObject(
      {
        ok: true,
        action: { next_node: "final_response" },
      },
    );
    const twins = { ...options, toolNames: new Set(["get_user", "Get-User"]) };
    expect(interpretReply('{"next_node": "GET_USER", "args": {}}', twins)).toMatchObject({
      ok: true,
      action: { next_node: "GET_USER" },
    });
  });

  it("takes the whole answer string of a final reply broken after it, never a cut-off one", () => {
    expect(
      interpretReply('{"next_node": "final_response", "args": {"answer": "Done.", "sources": [}', options),
    ).toMatchObject({ ok: true, action: { args: { answer: "Done." } }, notes: [{ rule: "answer_string" }] });
    expect(
      interpretReply('{"next_node": "search", "args": {"answer": "Done.", "x": [}', options),
    ).toMatchObject({ ok: false });
    expect(
      interpretReply('{"next_node": "final_response", "args": {"answer": "Partial', options),
    ).toMatchObject({ ok: false, code: "truncated_reply" });
  });
});
