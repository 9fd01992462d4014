import { AgentSpec, Guard, validateAgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { makeSpec } from "../testing/make-spec.js";
import {
  createGuard,
  getFieldIssues,
  getGuardActions,
  getGuardIssues,
  getGuardSummary,
  isGuardIssue,
  moveGuard,
  setGuardCheckKind,
  setGuardStage,
} from "./guard-model.js";

describe("a new guard", () => {
  it("is named after its check, uniquely, with an action its check can do, and is a valid guard", () => {
    const pii = createGuard("pii", []);
    expect(pii).toMatchObject({ name: "pii", on: "tool_result", action: "redact", check: { kind: "pii" } });
    expect(createGuard("pii", [pii, { name: "pii-2" }]).name).toBe("pii-3");
    expect(createGuard("llm", []).action).toBe("block");
    expect(createGuard("deny_words", []).action).toBe("block");
    for (const kind of ["pii", "secrets", "prompt_injection", "max_length", "json_schema", "llm"] as const)
      expect(Guard.safeParse(createGuard(kind, [])).success, kind).toBe(true);
  });

  it("starts a word list or module empty, so the validator says what to fill in at the field", () => {
    const spec = makeSpec({ guards: [] });
    const guards = [createGuard("deny_words", []), createGuard("module", [])];
    const issues = validateAgentSpec({ ...spec, guards }).issues;
    expect(getFieldIssues(getGuardIssues(issues, 0), 0, "check.words")).toHaveLength(1);
    expect(getFieldIssues(getGuardIssues(issues, 1), 1, "check.name")).toHaveLength(1);
    expect(getGuardIssues(issues, 1).every((issue) => issue.path.startsWith("$.guards[1]"))).toBe(true);
  });
});

describe("editing a guard", () => {
  it("offers redact only on checks that find something to mask", () => {
    expect(getGuardActions("pii")).toContain("redact");
    expect(getGuardActions("max_length")).toContain("redact");
    expect(getGuardActions("llm")).not.toContain("redact");
    expect(getGuardActions("json_schema")).toEqual(["block", "flag", "pause"]);
  });

  it("starts the options over on a new kind, and turns a redact it cannot do into block", () => {
    const pii = { ...createGuard("pii", []), action: "redact" as const };
    expect(setGuardCheckKind(pii, "llm")).toMatchObject({ check: { kind: "llm" }, action: "block" });
    expect(setGuardCheckKind(pii, "secrets")).toMatchObject({ check: { kind: "secrets" }, action: "redact" });
    expect(setGuardCheckKind(pii, "pii")).toBe(pii);
  });

  it("drops the tools of a guard that leaves tool results", () => {
    const watching = { ...createGuard("pii", []), tools: ["alpha"] };
    expect(setGuardStage(watching, "output")).not.toHaveProperty("tools");
    expect(setGuardStage(setGuardStage(watching, "output"), "tool_result")).not.toHaveProperty("tools");
    expect(getGuardSummary(watching)).toBe("Personal data on alpha → redact");
    expect(getGuardSummary(createGuard("llm", []))).toBe("Model judge on answer → block");
  });

  it("moves a guard within the list and leaves the ends alone", () => {
    const [a, b, c] = ["a", "b", "c"].map((name) => ({ ...createGuard("pii", []), name }));
    const names = (guards: readonly Guard[]) => guards.map((guard) => guard.name);
    expect(names(moveGuard([a!, b!, c!], 2, -1))).toEqual(["a", "c", "b"]);
    expect(names(moveGuard([a!, b!, c!], 0, -1))).toEqual(["a", "b", "c"]);
  });
});

describe("guard issues", () => {
  it("are found by guard and by field, with the spec's paths", () => {
    const spec = AgentSpec.parse({ ...makeSpec(), guards: [] });
    const guards = [
      { ...createGuard("pii", []), tools: ["alpha", "nope"] },
      {
        ...createGuard("deny_words", []),
        check: { kind: "deny_words" as const, words: ["fine", "(broken"], regex: true },
      },
      { ...createGuard("llm", []), name: "pii", action: "redact" as const },
    ];
    const issues = validateAgentSpec({ ...spec, guards }).issues.filter(isGuardIssue);
    expect(getFieldIssues(issues, 0, "tools").map((issue) => issue.path)).toEqual(["$.guards[0].tools[1]"]);
    expect(getFieldIssues(issues, 1, "check.words").map((issue) => issue.path)).toEqual([
      "$.guards[1].check.words[1]",
    ]);
    expect(getFieldIssues(issues, 2, "name")[0]?.message).toContain('already named "pii"');
    expect(getFieldIssues(issues, 2, "action")[0]?.message).toContain("cannot redact");
    expect(getGuardIssues(issues, 1)).toHaveLength(1);
    expect(isGuardIssue({ path: "$.guardsExtra" })).toBe(false);
  });
});
