import { describe, expect, it } from "vitest";
import type { TrajectoryStep } from "../run/run-state.js";
import { detectStuck, getStableJson, isEmptyResult } from "./detect-stuck.js";

type StepInput = Partial<TrajectoryStep> & { next_node: string };

function steps(...inputs: StepInput[]): TrajectoryStep[] {
  return inputs.map((input, index) => ({
    index,
    args: {},
    source: "llm",
    startedAt: 0,
    durationMs: 0,
    observation: { ok: true },
    ...input,
  }));
}

const search = (q: string, extra: Partial<TrajectoryStep> = {}): StepInput => ({
  next_node: "search_docs",
  args: { q },
  ...extra,
});
const fetchPage = (url: string): StepInput => ({ next_node: "fetch_page", args: { url } });
const failing = (id: string, code = "tool_failed"): StepInput => ({
  next_node: "lookup",
  args: { id },
  failure: { node: "lookup", args: { id }, error_code: code, message: "upstream 503" },
});

const detect = (list: TrajectoryStep[], since = 0) => detectStuck({ steps: list, repeats: 3, since });

describe("detectStuck", () => {
  it("finds the same call the third time, whatever the order of its args' keys", () => {
    expect(detect(steps(search("x"), search("x")))).toBeUndefined();
    const found = detect(
      steps(
        { next_node: "search_docs", args: { q: "x", limit: 5 } },
        fetchPage("u"),
        { next_node: "search_docs", args: { limit: 5, q: "x" } },
        { next_node: "search_docs", args: { q: "x", limit: 5 } },
      ),
    );
    expect(found).toEqual({
      pattern: "repeat",
      tools: ["search_docs"],
      count: 3,
      message: "search_docs called 3 times with the same arguments",
    });
  });

  it("does not count calls that differ only in their arguments", () => {
    expect(detect(steps(search("a"), search("b"), search("c"), search("d"), search("e")))).toBeUndefined();
  });

  it("finds two calls taking turns (A, B, A, B), and not a third call between them", () => {
    expect(detect(steps(search("x"), fetchPage("u"), search("x")))).toBeUndefined();
    expect(detect(steps(search("x"), fetchPage("u"), search("x"), fetchPage("u")))).toMatchObject({
      pattern: "alternate",
      tools: ["search_docs", "fetch_page"],
      count: 2,
      message: "search_docs and fetch_page alternated 2 times with the same arguments",
    });
    expect(
      detect(steps(search("x"), fetchPage("u"), search("y"), search("x"), fetchPage("u"))),
    ).toBeUndefined();
  });

  it("finds one tool failing with the same error, whatever its args", () => {
    expect(detect(steps(failing("1"), failing("2"), failing("3", "bad_args")))).toBeUndefined();
    expect(detect(steps(failing("1"), failing("2"), search("q"), failing("3")))).toEqual({
      pattern: "error",
      tools: ["lookup"],
      count: 3,
      message: "lookup failed 3 times with the same error (tool_failed)",
    });
  });

  it("finds empty results in a row, and a result with something in it ends the row", () => {
    const empty = (q: string, observation: unknown) => search(q, { observation });
    expect(
      detect(steps(empty("a", { results: [] }), empty("b", ""), search("c"), empty("d", null))),
    ).toBeUndefined();
    expect(
      detect(
        steps(
          empty("a", { results: [] }),
          { next_node: "fetch_page", args: {}, observation: [] },
          empty("b", {}),
        ),
      ),
    ).toMatchObject({ pattern: "empty", tools: ["search_docs", "fetch_page"], count: 3 });
  });

  it("leaves out auto-seq steps, notes, refused actions, and parallel plans (which end a row)", () => {
    const auto = search("x", { source: "auto_seq" });
    expect(detect(steps(auto, auto, auto))).toBeUndefined();
    expect(detect(steps(search("x"), auto, search("x"), auto))).toBeUndefined();
    const note = { next_node: "user_input", args: {}, note: true as const };
    expect(detect(steps(note, note, note))).toBeUndefined();
    const refused = search("x", { refused: { code: "invalid_args", message: "no" } });
    expect(detect(steps(refused, refused, refused))).toBeUndefined();
    const plan = (urls: string[]): StepInput => ({
      next_node: "parallel",
      args: { steps: urls.map((url) => ({ node: "fetch_page", args: { url } })) },
      branches: urls.map((url) => ({ node: "fetch_page", args: { url }, observation: { text: url } })),
    });
    expect(detect(steps(plan(["a", "b"]), plan(["c", "d"]), plan(["e", "f"])))).toBeUndefined();
    const empty = search("q", { observation: [] });
    expect(detect(steps(empty, empty, plan(["a"]), { ...empty, args: { q: "r" } }))).toBeUndefined();
  });

  it("counts only from `since` on, and only when the newest step completes the loop", () => {
    const list = steps(search("x"), search("x"), search("x"), search("x"));
    expect(detect(list, 3)).toBeUndefined();
    expect(detect([...list, ...steps(fetchPage("u"))].map((step, index) => ({ ...step, index })))).toBe(
      undefined,
    );
  });

  it("reads empty results by their content and args by their JSON", () => {
    expect([null, undefined, " ", [], {}, { results: [], next: null }].every(isEmptyResult)).toBe(true);
    expect([0, false, "x", [1], { total: 0, results: [] }].some(isEmptyResult)).toBe(false);
    expect(getStableJson({ b: 1, a: { d: 2, c: [3] } })).toBe('{"a":{"c":[3],"d":2},"b":1}');
  });
});
