import { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createReasoningSummary, createReflectSummary, MAX_REFLECTION_CHARS } from "./reflection.js";

describe("createReasoningSummary", () => {
  it("plan: progress and the current todo", () => {
    const todos = [
      { id: "a", content: "find sources", status: "completed" as const },
      { id: "b", content: "read the report", status: "in_progress" as const },
      { id: "c", content: "summarize", status: "pending" as const },
      { id: "d", content: "answer", status: "pending" as const },
    ];
    expect(createReasoningSummary({ phase: "plan", todos })).toEqual({
      phase: "plan",
      summary: "1/4 done · now: read the report",
    });
    const notStarted = todos.map((todo) => ({ ...todo, status: "pending" as const }));
    expect(createReasoningSummary({ phase: "plan", todos: notStarted, focus: "sources" }).summary).toBe(
      "0/4 done · next: find sources · focus: sources",
    );
  });

  it("act: the tool and its arg names, not their values", () => {
    const summary = createReasoningSummary({
      phase: "act",
      tool: "search",
      args: { query: "secret plans", limit: 5 },
    });
    expect(summary).toEqual({ phase: "act", summary: "calling search with {query, limit}" });
  });

  it("obs: a one-line digest of a result or a failure", () => {
    const digest = (observation: unknown) =>
      createReasoningSummary({ phase: "obs", tool: "t", observation }).summary;
    expect(digest({ results: [], total: 0 })).toBe("t → {results, total}");
    expect(digest([1, 2, 3])).toBe("t → 3 items");
    expect(digest("short\nanswer")).toBe('t → "short answer"');
    expect(digest("x".repeat(500))).toBe("t → text (500 chars)");
    expect(digest(undefined)).toBe("t → no result");
    expect(digest(42)).toBe("t → 42");
    const failed = createReasoningSummary({
      phase: "obs",
      tool: "t",
      failure: { error_code: "tool_timeout", message: "took\ntoo long" },
    });
    expect(failed.summary).toBe("t failed (tool_timeout): took too long");
  });

  it("reflect: one short sentence, capped", () => {
    expect(createReflectSummary("Search found nothing.  Try another source next. Then answer.")).toBe(
      "Search found nothing.",
    );
    const long = createReflectSummary("word ".repeat(100));
    expect(long.length).toBeLessThanOrEqual(MAX_REFLECTION_CHARS);
    expect(long.endsWith("…")).toBe(true);
    expect(createReflectSummary("line one\nline two")).toBe("line one line two");
  });

  it("produces valid reasoning events", () => {
    const data = createReasoningSummary({ phase: "reflect", text: "Done." });
    expect(() =>
      RunEvent.parse({ runId: "r", seq: 1, ts: 0, step: 0, type: "reasoning", data }),
    ).not.toThrow();
  });
});
