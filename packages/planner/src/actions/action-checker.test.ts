import { PlannerOptions } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkAction, type CheckContext } from "./action-checker.js";
import { formatIssues } from "../util/format-issues.js";
import { buildCatalog } from "../catalog/catalog.js";
import { resolveHints } from "../catalog/resolve-hints.js";
import { defineTool } from "../catalog/tool.js";

const search = defineTool({
  name: "search",
  desc: "Search",
  args: z.object({ query: z.string(), k: z.number().default(3) }),
  out: z.object({}),
  run: () => ({}),
});
const cached = defineTool({ ...search, name: "cached" });
const send = defineTool({ ...search, name: "send", requiresApproval: true });
const merge = defineTool({
  name: "merge",
  desc: "Merge",
  args: z.object({ results: z.array(z.unknown()) }),
  out: z.object({}),
  run: () => ({}),
});
const catalog = buildCatalog({ tools: [search, cached, send, merge] });

type Overrides = Partial<Omit<CheckContext, "hints">> & { hints?: Parameters<typeof resolveHints>[0] };

function context(overrides: Overrides = {}): CheckContext {
  const { hints, ...rest } = overrides;
  return {
    catalog,
    hints: resolveHints(hints ?? {}),
    options: PlannerOptions.parse({}),
    visited: new Set(),
    corrections: [],
    hopsLeft: Infinity,
    ...rest,
  };
}

function rejection(result: ReturnType<typeof checkAction>) {
  if (result.ok) throw new Error("expected a rejection");
  return result.rejection;
}

describe("checkAction: tools", () => {
  it("accepts valid args with defaults applied", () => {
    expect(checkAction({ next_node: "search", args: { query: "q" } }, context())).toMatchObject({
      ok: true,
      checked: { kind: "tool", args: { query: "q", k: 3 } },
    });
  });

  it("refuses unknown tools with the catalog, and disallowed ones as a hint", () => {
    const unknown = rejection(checkAction({ next_node: "web", args: {} }, context()));
    expect(unknown).toMatchObject({ code: "unknown_tool", repairKind: "unknown_tool", purpose: "repair" });
    expect(JSON.parse(unknown.message)).toMatchObject({
      error: { available_tools: ["search", "cached", "send", "merge"] },
    });
    const banned = rejection(
      checkAction(
        { next_node: "search", args: { query: "q" } },
        context({ hints: { hints: { disallow_nodes: ["search"] } } }),
      ),
    );
    expect(banned).toMatchObject({
      code: "disallowed_node",
      constraint: { constraint: "disallow_nodes", enforced: "rejected" },
    });
    expect(banned.repairKind).toBeUndefined();
  });

  it("asks for missing fields only (arg-fill), else repairs", () => {
    const missing = rejection(checkAction({ next_node: "search", args: {} }, context()));
    expect(missing).toMatchObject({
      code: "missing_args",
      purpose: "arg_fill",
      argFill: { node: "search", missing: ["query"] },
      argFailure: true,
    });
    const wrong = rejection(checkAction({ next_node: "search", args: { query: 5 } }, context()));
    expect(wrong).toMatchObject({ code: "invalid_args", purpose: "repair", repairKind: "args" });
    const noFill = rejection(
      checkAction(
        { next_node: "search", args: {} },
        context({ options: PlannerOptions.parse({ argFill: false }) }),
      ),
    );
    expect(noFill.code).toBe("invalid_args");
  });

  it("corrects ordering once per skipped tool and prefers substitutes that accept the args", () => {
    const hints = { hints: { ordering_hints: ["cached", "search"] } };
    const first = rejection(checkAction({ next_node: "search", args: { query: "q" } }, context({ hints })));
    expect(first).toMatchObject({
      code: "ordering_hint",
      purpose: "correction",
      softKeys: ["ordering_hints:cached"],
    });
    expect(
      checkAction(
        { next_node: "search", args: { query: "q" } },
        context({ hints, corrections: ["ordering_hints:cached"] }),
      ).ok,
    ).toBe(true);
    const prefer = rejection(
      checkAction(
        { next_node: "search", args: { query: "q" } },
        context({ hints: { hints: { prefer_nodes: ["cached"] } } }),
      ),
    );
    expect(prefer).toMatchObject({ code: "prefer_hint", softKeys: ["prefer_nodes"] });
    expect(
      checkAction(
        { next_node: "search", args: { query: "q" } },
        context({ hints: { hints: { prefer_nodes: ["merge"] } } }),
      ).ok,
    ).toBe(true);
    expect(
      checkAction({ next_node: "search", args: { query: "q" } }, context({ hints, skipSoftHints: true })).ok,
    ).toBe(true);
  });
});

describe("checkAction: final_response", () => {
  it("accepts an answer and refuses a missing one, keeping a fallback", () => {
    expect(
      checkAction({ next_node: "final_response", args: { answer: "hi", confidence: 0.5 } }, context()),
    ).toMatchObject({
      ok: true,
      checked: { kind: "final", args: { answer: "hi", confidence: 0.5 } },
    });
    const missing = rejection(checkAction({ next_node: "final_response", args: { sources: [] } }, context()));
    expect(missing).toMatchObject({
      code: "missing_answer",
      repairKind: "opcode_args",
      fallback: { kind: "final" },
    });
    // An invalid optional field costs no repair: the answer stands and the field is kept for `extra`.
    expect(
      checkAction({ next_node: "final_response", args: { answer: "a", confidence: 3 } }, context()),
    ).toMatchObject({
      ok: true,
      checked: { kind: "final", args: { answer: "a" }, invalid: { confidence: 3 } },
      notes: [{ rule: "final_invalid_moved" }],
    });
    const invalidWithoutAnswer = rejection(
      checkAction({ next_node: "final_response", args: { confidence: 3 } }, context()),
    );
    expect(invalidWithoutAnswer).toMatchObject({
      code: "missing_answer",
      fallback: { kind: "final", args: {}, invalid: { confidence: 3 } },
    });
  });

  it("reads sources given as strings and notes keys the payload has no field for", () => {
    const result = checkAction(
      {
        next_node: "final_response",
        args: { answer: "a", sources: ["https://example.com/a", "Annual report"], mood: "sure" },
      },
      context(),
    );
    expect(result).toMatchObject({
      ok: true,
      checked: { args: { sources: [{ url: "https://example.com/a" }, { title: "Annual report" }] } },
      notes: [{ rule: "sources_strings" }, { rule: "final_extra", detail: expect.stringMatching(/mood/) }],
    });
  });
});

describe("checkAction: parallel", () => {
  const steps = [
    { node: "search", args: { query: "a" } },
    { node: "cached", args: { query: "b" } },
  ];

  it("plans branches with the effective limit and the group's join", () => {
    const result = checkAction(
      { next_node: "parallel", args: { steps } },
      context({
        hints: {
          hints: { budget_hints: { max_parallel: 4 } },
          groups: [
            {
              id: "g",
              kind: "parallel",
              name: "G",
              members: ["search", "cached"],
              maxParallel: 1,
              join: { tool: "merge", args: {}, inject: { results: "$results" } },
            },
          ],
        },
      }),
    );
    expect(result).toMatchObject({
      ok: true,
      checked: {
        kind: "parallel",
        limit: 1,
        requested: 2,
        groupId: "g",
        join: { inject: { results: "$results" }, fromGroup: "g" },
      },
    });
  });

  it("refuses bad shapes, opcodes, unknown, disallowed, sequential-only and approval tools in branches", () => {
    expect(rejection(checkAction({ next_node: "parallel", args: { steps: [] } }, context())).code).toBe(
      "invalid_parallel_args",
    );
    const cases: [Record<string, unknown>, string, CheckContext][] = [
      [{ node: "final_response", args: {} }, "opcode_in_parallel", context()],
      [{ node: "nope", args: {} }, "unknown_tool", context()],
      [
        { node: "cached", args: { query: "b" } },
        "disallowed_node",
        context({ hints: { hints: { disallow_nodes: ["cached"] } } }),
      ],
      [
        { node: "cached", args: { query: "b" } },
        "sequential_only",
        context({ hints: { hints: { sequential_only: ["cached"] } } }),
      ],
      [{ node: "send", args: { query: "b" } }, "approval_in_parallel", context()],
      [{ node: "cached", args: {} }, "invalid_args", context()],
    ];
    for (const [step, code, ctx] of cases) {
      expect(
        rejection(checkAction({ next_node: "parallel", args: { steps: [steps[0], step] } }, ctx)).code,
      ).toBe(code);
    }
  });

  it("skips unusable joins instead of refusing the plan, and checks the hop budget", () => {
    const unknownJoin = checkAction(
      { next_node: "parallel", args: { steps, join: { node: "ghost" } } },
      context(),
    );
    expect(unknownJoin).toMatchObject({
      ok: true,
      checked: { join: { node: "ghost", unusable: "unknown_tool" } },
    });
    const approvalJoin = checkAction(
      { next_node: "parallel", args: { steps, join: { node: "send" } } },
      context(),
    );
    expect(approvalJoin).toMatchObject({ ok: true, checked: { join: { unusable: "approval_required" } } });
    expect(
      rejection(
        checkAction(
          { next_node: "parallel", args: { steps, join: { node: "merge" } } },
          context({ hopsLeft: 2 }),
        ),
      ).code,
    ).toBe("hop_budget");
  });
});

describe("formatIssues", () => {
  it("lists at most five issues with their paths", () => {
    const issues =
      z
        .object({ a: z.string(), b: z.string(), c: z.string(), d: z.string(), e: z.string(), f: z.string() })
        .safeParse({}).error?.issues ?? [];
    expect(formatIssues(issues)).toMatch(/^a: .*; e: .*; and 1 more$/);
  });
});

describe("checkAction: placeholders and arg-fill", () => {
  const route = defineTool({
    name: "route",
    desc: "Route a ticket",
    args: z.object({
      intent: z.enum(["docs", "billing", "unknown"]).describe("Where the ticket goes"),
      team: z.string().nullable(),
      note: z.string().optional(),
      filters: z.object({ city: z.string() }).optional(),
    }),
    out: z.object({}),
    run: () => ({}),
  });
  const routeCatalog = buildCatalog({ tools: [route] });

  it("asks arg-fill for missing enum and nullable fields, with their options", () => {
    const refused = rejection(
      checkAction({ next_node: "route", args: {} }, context({ catalog: routeCatalog })),
    );
    expect(refused).toMatchObject({ code: "missing_args", argFill: { missing: ["intent", "team"] } });
    expect(JSON.parse(refused.message).instruction).toMatch(
      /intent \(one of "docs", "billing", "unknown"\): Where the ticket goes; team \(string\)/,
    );
  });

  it("never takes a placeholder for a value: required ones are missing, optional ones dropped", () => {
    for (const value of ["<auto>", "<FILL_VALUE>", "TBD", "n/a", "?", "null", "Unknown ", "team"]) {
      const refused = rejection(
        checkAction(
          { next_node: "route", args: { intent: "docs", team: value } },
          context({ catalog: routeCatalog }),
        ),
      );
      expect(refused, value).toMatchObject({ code: "missing_args", placeholders: ["team"] });
    }
    const echo = rejection(
      checkAction(
        { next_node: "route", args: { intent: "where the ticket goes.", team: "a" } },
        context({ catalog: routeCatalog }),
      ),
    );
    expect(echo.argFill?.missing).toEqual(["intent"]);
    // An enum option is a value, even one that reads like a placeholder.
    expect(
      checkAction(
        { next_node: "route", args: { intent: "unknown", team: null } },
        context({ catalog: routeCatalog }),
      ).ok,
    ).toBe(true);
    expect(
      checkAction(
        { next_node: "route", args: { intent: "docs", team: "a", note: "<auto>" } },
        context({ catalog: routeCatalog }),
      ),
    ).toMatchObject({
      ok: true,
      checked: { args: { intent: "docs", team: "a" } },
      notes: [{ rule: "placeholder_dropped" }],
    });
    const nested = rejection(
      checkAction(
        { next_node: "route", args: { intent: "docs", team: "a", filters: { city: "TBD" } } },
        context({ catalog: routeCatalog }),
      ),
    );
    expect(nested).toMatchObject({ code: "placeholder_args", placeholders: ["filters.city"] });
  });

  it("takes a person's or a tool's values as they are", () => {
    expect(
      checkAction(
        { next_node: "route", args: { intent: "docs", team: "TBD" } },
        context({ catalog: routeCatalog, skipSoftHints: true }),
      ).ok,
    ).toBe(true);
  });
});
