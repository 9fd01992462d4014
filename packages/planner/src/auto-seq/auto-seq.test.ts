import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AutoSeqTool, detectTransition } from "./auto-seq.js";
import { AutoSeqCache } from "./auto-seq-cache.js";

const search = z.object({ query: z.string() });
const fetchPage = z.object({ url: z.string() });
const anyObject = z.looseObject({});

function tool(name: string, args: z.ZodType, extra: Partial<AutoSeqTool> = {}): AutoSeqTool {
  return { name, args, sideEffects: "read", autoSeq: true, ...extra };
}

const tools = [tool("search", search), tool("fetch_page", fetchPage)];
const step = (next_node: string, observation: unknown) => ({ next_node, observation });

describe("detectTransition outcomes", () => {
  it("unique: one eligible tool accepts the observation; the action carries the validated args", () => {
    const result = detectTransition({
      steps: [step("triage", { url: "https://example.com", score: 1 })],
      tools,
      readOnlyOnly: true,
    });
    expect(result.status).toBe("unique");
    expect(result.candidates).toEqual(["fetch_page"]);
    // z.object strips unknown keys: args come from the validated payload, not the raw observation.
    expect(result.action).toEqual({ next_node: "fetch_page", args: { url: "https://example.com" } });
    expect(result.fingerprint?.payload_keys_count).toBe(2);
  });

  it("ambiguous: several eligible tools accept it, and no action is chosen", () => {
    const result = detectTransition({
      steps: [step("triage", { query: "q", url: "u" })],
      tools,
      readOnlyOnly: true,
    });
    expect(result).toMatchObject({ status: "ambiguous", candidates: ["search", "fetch_page"] });
    expect(result.action).toBeUndefined();
  });

  it("none: no tool accepts it", () => {
    const result = detectTransition({ steps: [step("triage", { other: 1 })], tools, readOnlyOnly: true });
    expect(result).toMatchObject({ status: "none", candidates: [] });
    expect(result.fingerprint?.payload_type).toBe("object");
  });

  it("values matter, not only keys", () => {
    const result = detectTransition({ steps: [step("triage", { query: 42 })], tools, readOnlyOnly: true });
    expect(result.status).toBe("none");
  });
});

describe("detectTransition skip reasons", () => {
  it("no_steps before the first step, without a fingerprint", () => {
    const result = detectTransition({ steps: [], tools, readOnlyOnly: true });
    expect(result).toEqual({ status: "skipped", reason: "no_steps", candidates: [] });
  });

  it("pending_actions_present when a queued action will run first (array or count)", () => {
    const steps = [step("triage", { query: "q" })];
    expect(detectTransition({ steps, tools, readOnlyOnly: true, pendingActions: [{}] }).reason).toBe(
      "pending_actions_present",
    );
    expect(detectTransition({ steps, tools, readOnlyOnly: true, pendingActions: 2 }).reason).toBe(
      "pending_actions_present",
    );
    expect(detectTransition({ steps, tools, readOnlyOnly: true, pendingActions: 0 }).status).toBe("unique");
  });

  it("previous_step_parallel after a parallel step (and its `plan` synonym)", () => {
    for (const next_node of ["parallel", "plan"]) {
      const result = detectTransition({
        steps: [step(next_node, { query: "q" })],
        tools,
        readOnlyOnly: true,
      });
      expect(result.reason).toBe("previous_step_parallel");
    }
  });

  it("non_structured_observation for text, arrays, null, class instances and failures", () => {
    const observations: unknown[] = ["text", [1, 2], null, 3, new Date(0), undefined];
    for (const observation of observations) {
      const result = detectTransition({ steps: [step("a", observation)], tools, readOnlyOnly: true });
      expect(result.reason).toBe("non_structured_observation");
    }
    const failed = detectTransition({
      steps: [{ next_node: "a", failure: { error_code: "tool_failed", message: "boom" } }],
      tools,
      readOnlyOnly: true,
    });
    expect(failed.reason).toBe("non_structured_observation");
    expect(failed.fingerprint).toMatchObject({ payload_type: "failure", payload_keys_count: 0 });
    const text = detectTransition({ steps: [step("a", "secret text")], tools, readOnlyOnly: true });
    expect(text.fingerprint?.payload_type).toBe("string");
  });

  it("accepts objects without a prototype", () => {
    const observation = Object.assign(Object.create(null) as Record<string, unknown>, { query: "q" });
    const result = detectTransition({ steps: [step("a", observation)], tools, readOnlyOnly: true });
    expect(result.status).toBe("unique");
  });
});

describe("eligibility gates", () => {
  const observation = { query: "q" };

  it("ignores tools without autoSeq", () => {
    const result = detectTransition({
      steps: [step("a", observation)],
      tools: [tool("search", search, { autoSeq: false }), tool("other", anyObject)],
      readOnlyOnly: true,
    });
    expect(result.candidates).toEqual(["other"]);
  });

  it("readOnlyOnly keeps pure and read tools only", () => {
    const mixed = [
      tool("pure_tool", anyObject, { sideEffects: "pure" }),
      tool("read_tool", anyObject, { sideEffects: "read" }),
      tool("write_tool", anyObject, { sideEffects: "write" }),
      tool("external_tool", anyObject, { sideEffects: "external" }),
      tool("stateful_tool", anyObject, { sideEffects: "stateful" }),
    ];
    const gated = detectTransition({ steps: [step("a", observation)], tools: mixed, readOnlyOnly: true });
    expect(gated.candidates).toEqual(["pure_tool", "read_tool"]);
    const open = detectTransition({ steps: [step("a", observation)], tools: mixed, readOnlyOnly: false });
    expect(open.candidates).toHaveLength(5);
  });

  it("drops blocked tools", () => {
    const result = detectTransition({
      steps: [step("a", { query: "q", url: "u" })],
      tools,
      readOnlyOnly: true,
      blocked: ["search"],
    });
    expect(result).toMatchObject({ status: "unique", candidates: ["fetch_page"] });
  });

  it("only sees the tools it is given (the visibility scope)", () => {
    const result = detectTransition({
      steps: [step("a", { query: "q", url: "u" })],
      tools: tools.slice(1),
      readOnlyOnly: true,
    });
    expect(result.candidates).toEqual(["fetch_page"]);
  });

  it("a tool with incoming auto_seq edges is eligible only right after one of their sources", () => {
    const both = { query: "q", url: "u" };
    const edges = [{ source: "triage", target: "search", kind: "auto_seq" }];
    const afterTriage = detectTransition({
      steps: [step("triage", both)],
      tools,
      readOnlyOnly: true,
      autoSeqEdges: edges,
    });
    expect(afterTriage.candidates).toEqual(["search", "fetch_page"]);
    const afterOther = detectTransition({
      steps: [step("lookup", both)],
      tools,
      readOnlyOnly: true,
      autoSeqEdges: edges,
    });
    expect(afterOther).toMatchObject({ status: "unique", candidates: ["fetch_page"] });
  });

  it("ignores edges of other kinds", () => {
    const result = detectTransition({
      steps: [step("lookup", { query: "q" })],
      tools,
      readOnlyOnly: true,
      autoSeqEdges: [{ source: "triage", target: "search", kind: "order" }],
    });
    expect(result.status).toBe("unique");
  });
});

describe("cache", () => {
  it("answers repeated shapes from the cache and gives the same results as without it", () => {
    const cache = new AutoSeqCache();
    const observations = [{ url: "a" }, { url: "b" }, { url: 3 }, { url: "c", query: "q" }, { url: "d" }];
    for (const observation of observations) {
      const input = { steps: [step("a", observation)], tools, readOnlyOnly: true };
      expect(detectTransition({ ...input, cache })).toEqual(detectTransition(input));
    }
    // 2 tools × 2 distinct shapes are computed; the 3 repeats of {url} hit for both tools.
    expect(cache.stats).toEqual({ hits: 6, misses: 4 });
  });

  it("drops what it knew about a tool when the tool's schema changes", () => {
    const cache = new AutoSeqCache();
    const steps = [step("a", { url: "u" })];
    detectTransition({ steps, tools: [tool("t", search)], readOnlyOnly: true, cache });
    const changed = detectTransition({ steps, tools: [tool("t", fetchPage)], readOnlyOnly: true, cache });
    expect(changed.status).toBe("unique");
    expect(cache.stats.misses).toBe(2);
  });
});
