import { describe, expect, it } from "vitest";
import { normalizeAction, normalizeActionDetailed } from "./normalize-action.js";
import { PlannerError } from "../errors/planner-error.js";

function errorOf(run: () => unknown): PlannerError {
  try {
    run();
  } catch (error) {
    if (error instanceof PlannerError) return error;
    throw error;
  }
  throw new Error("expected a PlannerError");
}

describe("normalizeAction: unified actions and opcodes", () => {
  it("accepts a tool call as is", () => {
    expect(normalizeAction('{"next_node": "search", "args": {"q": "x"}}')).toEqual({
      next_node: "search",
      args: { q: "x" },
    });
  });

  it("defaults missing args to an empty object", () => {
    expect(normalizeAction('{"next_node": "ping"}')).toEqual({ next_node: "ping", args: {} });
  });

  it("accepts already-parsed objects", () => {
    expect(normalizeAction({ next_node: "final_response", args: { answer: "hi" } })).toEqual({
      next_node: "final_response",
      args: { answer: "hi" },
    });
  });

  it("keeps every opcode canonical", () => {
    const parallel = normalizeAction({ next_node: "parallel", args: { steps: [{ node: "a", args: {} }] } });
    expect(parallel).toEqual({ next_node: "parallel", args: { steps: [{ node: "a", args: {} }] } });
    expect(normalizeAction({ next_node: "task.subagent", args: { name: "n", query: "q" } }).next_node).toBe(
      "task.subagent",
    );
    expect(normalizeAction({ next_node: "task.tool", args: { name: "n", tool: "t" } }).next_node).toBe(
      "task.tool",
    );
  });
});

describe("normalizeAction: synonyms", () => {
  it("rewrites plan to parallel", () => {
    const result = normalizeActionDetailed(
      '{"next_node": "plan", "args": {"steps": [{"node": "a", "args": {"x": 1}}]}}',
    );
    expect(result.action).toEqual({
      next_node: "parallel",
      args: { steps: [{ node: "a", args: { x: 1 } }] },
    });
    expect(result.rewrites).toContain("synonym:plan");
  });

  it("rewrites task with mode to task.subagent and task.tool", () => {
    expect(normalizeAction({ next_node: "task", args: { name: "r", mode: "subagent", query: "q" } })).toEqual(
      {
        next_node: "task.subagent",
        args: { name: "r", query: "q" },
      },
    );
    expect(
      normalizeAction({
        next_node: "task",
        args: { name: "r", mode: "job", tool: "t", tool_args: { a: 1 } },
      }),
    ).toEqual({
      next_node: "task.tool",
      args: { name: "r", tool: "t", tool_args: { a: 1 } },
    });
  });

  it("treats raw_answer as answer", () => {
    expect(normalizeAction({ next_node: "final_response", args: { raw_answer: "done" } })).toEqual({
      next_node: "final_response",
      args: { answer: "done" },
    });
  });

  it("reads a task with a string query as task.subagent, even beside a tool", () => {
    const result = normalizeActionDetailed(
      '{"next_node": "task", "args": {"query": "research X", "tool": "t"}}',
    );
    expect(result.action).toEqual({
      next_node: "task.subagent",
      args: { query: "research X", name: "research X" },
    });
    expect(result.rewrites).toContain("task_query_wins");
    expect(normalizeAction({ next_node: "task", args: { tool: "t", args: { a: 1 } } })).toEqual({
      next_node: "task.tool",
      args: { tool: "t", tool_args: { a: 1 }, name: "t job" },
    });
  });

  it("maps finish to final_response unless a tool has that name", () => {
    expect(normalizeAction({ next_node: "finish", args: { answer: "a" } }).next_node).toBe("final_response");
    expect(
      normalizeAction({ next_node: "finish", args: {} }, { toolNames: new Set(["finish"]) }).next_node,
    ).toBe("finish");
  });

  it("accepts parallel step shapes written with tool/arguments", () => {
    const action = normalizeAction({
      next_node: "parallel",
      args: {
        steps: [{ tool: "a", arguments: { x: 1 } }],
        join: { tool: "merge", inject: { results: "$results" } },
      },
    });
    expect(action.args).toEqual({
      steps: [{ node: "a", args: { x: 1 } }],
      join: { node: "merge", args: {}, inject: { results: "$results" } },
    });
  });
});

describe("normalizeAction: legacy shapes", () => {
  it("drops thought and keeps the tool call, returning the thought separately", () => {
    const result = normalizeActionDetailed(
      '{"thought": "need docs", "next_node": "search", "args": {"q": "x"}}',
    );
    expect(result.action).toEqual({ next_node: "search", args: { q: "x" } });
    expect(result.thought).toBe("need docs");
    expect(result.rewrites).toContain("legacy");
  });

  it("turns next_node null into final_response with the raw_answer", () => {
    expect(
      normalizeAction('{"thought": "ok", "next_node": null, "args": {"raw_answer": "The answer"}}'),
    ).toEqual({
      next_node: "final_response",
      args: { answer: "The answer" },
    });
  });

  it("turns a terminal without an answer into an empty final_response", () => {
    expect(normalizeAction({ thought: "done", next_node: null, args: null })).toEqual({
      next_node: "final_response",
      args: {},
    });
  });

  it("turns top-level plan and join into parallel", () => {
    const action = normalizeAction({
      thought: "fan out",
      next_node: null,
      args: null,
      plan: [
        { node: "retrieve_part", args: { id: 1 } },
        { node: "retrieve_part", args: { id: 2 } },
      ],
      join: { node: "merge_parts", args: { expect: 2 } },
    });
    expect(action).toEqual({
      next_node: "parallel",
      args: {
        steps: [
          { node: "retrieve_part", args: { id: 1 } },
          { node: "retrieve_part", args: { id: 2 } },
        ],
        join: { node: "merge_parts", args: { expect: 2 } },
      },
    });
  });

  it("omits a null legacy join", () => {
    const action = normalizeAction({ thought: "", plan: [{ node: "a", args: {} }], join: null });
    expect(action.args).toEqual({ steps: [{ node: "a", args: {} }] });
  });
});

describe("normalizeAction: hybrids", () => {
  it("prefers a non-empty plan when next_node is also a tool", () => {
    const action = normalizeAction({ next_node: "search", args: { q: 1 }, plan: [{ node: "a", args: {} }] });
    expect(action.next_node).toBe("parallel");
  });

  it("folds top-level keys into args when args is missing", () => {
    const result = normalizeActionDetailed({ next_node: "search", query: "cats", k: 3 });
    expect(result.action).toEqual({ next_node: "search", args: { query: "cats", k: 3 } });
    expect(result.rewrites).toContain("hybrid");
  });

  it("moves a top-level answer into final_response args", () => {
    expect(normalizeAction({ next_node: "final_response", answer: "hello" })).toEqual({
      next_node: "final_response",
      args: { answer: "hello" },
    });
  });

  it("parses args sent as a JSON string", () => {
    expect(normalizeAction({ next_node: "search", args: '{"q": "x"}' })).toEqual({
      next_node: "search",
      args: { q: "x" },
    });
  });

  it("takes a plain-string final_response args as the answer", () => {
    expect(normalizeAction({ next_node: "final_response", args: "Just this." })).toEqual({
      next_node: "final_response",
      args: { answer: "Just this." },
    });
  });

  it("accepts function-call shapes without next_node", () => {
    expect(normalizeAction({ name: "search", arguments: '{"q": "x"}' })).toEqual({
      next_node: "search",
      args: { q: "x" },
    });
    expect(normalizeAction({ action: "search", action_input: { q: "y" } })).toEqual({
      next_node: "search",
      args: { q: "y" },
    });
  });

  it("unwraps an action nested in a wrapper key", () => {
    const result = normalizeActionDetailed({ action: { next_node: "search", args: { q: 1 } } });
    expect(result.action).toEqual({ next_node: "search", args: { q: 1 } });
    expect(result.rewrites).toContain("wrapper");
  });
});

describe("normalizeAction: salvage from text", () => {
  it("finds the action in prose around it", () => {
    const result = normalizeActionDetailed(
      'Sure! I will search now: {"next_node": "search", "args": {"q": "a}b"}} Hope that helps.',
    );
    expect(result.action).toEqual({ next_node: "search", args: { q: "a}b" } });
    expect(result.salvage).toBe("embedded");
  });

  it("finds the action in a fenced block", () => {
    const text = 'Here is my action:\n```json\n{"next_node": "search", "args": {"q": "x"}}\n```\n';
    const result = normalizeActionDetailed(text);
    expect(result.action.next_node).toBe("search");
    expect(result.salvage).toBe("fenced");
  });

  it("reads Python-literal dicts with single quotes, None, True and False", () => {
    const result = normalizeActionDetailed(
      "{'thought': 'it\\'s done', 'next_node': None, 'args': {'raw_answer': 'Say \"hi\"', 'requires_followup': False, 'x': True,}}",
    );
    expect(result.action).toEqual({
      next_node: "final_response",
      args: { answer: 'Say "hi"', requires_followup: false, x: true },
    });
    expect(result.thought).toBe("it's done");
    expect(result.salvage).toBe("python_literal");
  });

  it("chooses the action-shaped object when several are present", () => {
    const text =
      'The args would be {"q": "x"}. So: {"next_node": "search", "args": {"q": "x"}} and not {"other": 1}';
    expect(normalizeAction(text)).toEqual({ next_node: "search", args: { q: "x" } });
  });

  it("decodes a double-encoded JSON string", () => {
    const text = JSON.stringify(JSON.stringify({ next_node: "search", args: {} }));
    const result = normalizeActionDetailed(text);
    expect(result.action.next_node).toBe("search");
    expect(result.salvage).toBe("double_encoded");
  });

  it("refuses a reply cut off mid-object (truncated_reply): a half-written action never runs", () => {
    for (const text of [
      '{"next_node":"search","args":{"q":"unterminated',
      '{"next_node": "final_response", "args": {"answer": "Partial ans',
      'Sure. {"next_node": "search", "args": {"q": "cats", "limit": 1',
      '{"note": 1} then {"next_node": "search", "args": {"q": "unt',
      "{'next_node': 'search', 'args': {'q': 'x', 'flag': True",
    ]) {
      const error = errorOf(() => normalizeAction(text));
      expect(error.code, text).toBe("truncated_reply");
      expect(error.message).toMatch(/cut off.*none of it was run/);
    }
  });

  it("keeps a complete action written before a cut-off second object", () => {
    const text = '{"next_node": "search", "args": {"q": "x"}} {"next_node": "final_response", "args": {"ans';
    expect(normalizeAction(text)).toEqual({ next_node: "search", args: { q: "x" } });
  });

  it("does not parse args sent as a JSON string that was cut off", () => {
    const error = errorOf(() => normalizeAction('{"next_node": "search", "args": "{\\"q\\": \\"unterm"}'));
    expect(error.code).toBe("invalid_action");
  });

  it("accepts trailing commas", () => {
    expect(normalizeAction('{"next_node": "a", "args": {"x": [1, 2,],},}')).toEqual({
      next_node: "a",
      args: { x: [1, 2] },
    });
  });
});

describe("normalizeAction: refusals", () => {
  it("says unparseable_action when no JSON object exists", () => {
    const error = errorOf(() => normalizeAction("I think we should search for cats."));
    expect(error.code).toBe("unparseable_action");
    expect(error.message).toMatch(/next_node/);
  });

  it("says unparseable_action for a bare JSON array or number", () => {
    expect(errorOf(() => normalizeAction("[1, 2]")).code).toBe("unparseable_action");
    expect(errorOf(() => normalizeAction("42")).code).toBe("unparseable_action");
  });

  it("says invalid_action for objects that are not actions", () => {
    expect(errorOf(() => normalizeAction('{"hello": "world"}')).code).toBe("invalid_action");
    expect(errorOf(() => normalizeAction({ next_node: "", args: {} })).code).toBe("invalid_action");
    expect(errorOf(() => normalizeAction({ next_node: "search", args: [1] })).code).toBe("invalid_action");
    expect(errorOf(() => normalizeAction(null)).code).toBe("invalid_action");
  });

  it("refuses legacy and hybrid shapes in strict unified mode", () => {
    const legacy = errorOf(() =>
      normalizeAction({ thought: "x", next_node: "a", args: {} }, { format: "unified" }),
    );
    expect(legacy.code).toBe("invalid_action");
    expect(errorOf(() => normalizeAction({ next_node: "a", q: 1 }, { format: "unified" })).code).toBe(
      "invalid_action",
    );
    expect(
      normalizeAction({ next_node: "plan", args: { steps: [{ node: "a" }] } }, { format: "unified" })
        .next_node,
    ).toBe("parallel");
  });
});

describe("normalizeAction: answers as PenguiFlow's finish path reads them", () => {
  it("joins args given as a list of lines, dropping empty and non-text items", () => {
    const result = normalizeActionDetailed(
      '{"next_node": "final_response", "args": ["Line one.", "", 7, "Line two."]}',
    );
    expect(result.action).toEqual({ next_node: "final_response", args: { answer: "Line one.\nLine two." } });
    expect(result.notes).toEqual([
      { rule: "args_lines", detail: expect.stringMatching(/2 empty or non-text items were dropped/) },
    ]);
    expect(normalizeAction('{"next_node": null, "args": ["Only line."]}').args).toEqual({
      answer: "Only line.",
    });
    expect(normalizeAction('{"next_node": "final_response", "args": ["", 7]}').args).toEqual({});
  });

  it("keeps answer as the answer when raw_answer differs (PenguiFlow), and raw_answer beside it under extra", () => {
    const result = normalizeActionDetailed(
      '{"next_node": "final_response", "args": {"answer": "A", "raw_answer": "B"}}',
    );
    expect(result.action.args).toEqual({ answer: "A", extra: { raw_answer: "B" } });
    expect(result.rewrites).toEqual(["answer_texts_kept"]);
    expect(
      normalizeActionDetailed({
        next_node: "final_response",
        args: { answer: "Short.", raw_answer: "The full answer.", sources: [] },
      }).action.args,
    ).toEqual({ answer: "Short.", sources: [], extra: { raw_answer: "The full answer." } });
    expect(
      normalizeAction({ next_node: "final_response", args: { answer: "Same", raw_answer: "Same" } }),
    ).toEqual({ next_node: "final_response", args: { answer: "Same" } });
  });

  it("keeps args.answer as the answer beside a top-level raw_answer or answer, keeping the other", () => {
    expect(
      normalizeAction('{"next_node": "final_response", "raw_answer": "Top.", "args": {"answer": "Inner."}}'),
    ).toEqual({ next_node: "final_response", args: { answer: "Inner.", extra: { raw_answer: "Top." } } });
    expect(
      normalizeAction({
        next_node: "final_response",
        answer: "Top.",
        args: { answer: "Inner.", extra: { k: 1 } },
      }),
    ).toEqual({ next_node: "final_response", args: { answer: "Inner.", extra: { k: 1, answer: "Top." } } });
  });

  it("keeps answer as the answer in the legacy shape too", () => {
    expect(
      normalizeAction('{"thought": "ok", "next_node": null, "args": {"answer": "A", "raw_answer": "B"}}'),
    ).toEqual({ next_node: "final_response", args: { answer: "A", extra: { raw_answer: "B" } } });
  });

  it("lets a real answer win over a stand-in raw_answer, and a real raw_answer over a stand-in answer", () => {
    expect(
      normalizeAction({ next_node: "final_response", args: { answer: "Real.", raw_answer: "TBD" } }),
    ).toEqual({ next_node: "final_response", args: { answer: "Real." } });
    expect(
      normalizeAction({ next_node: "final_response", args: { answer: "<answer>", raw_answer: "Real." } }),
    ).toEqual({ next_node: "final_response", args: { answer: "Real." } });
  });
});
