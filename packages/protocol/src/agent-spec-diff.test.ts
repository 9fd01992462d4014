import { describe, expect, it } from "vitest";
import { AgentSpec } from "./agent-spec.js";
import { getAgentSpecDiff, isEmptyAgentSpecDiff } from "./agent-spec-diff.js";

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  desc: `${name} things`,
  argsSchema: { type: "object", properties: { q: { type: "string" } } },
  outSchema: { type: "object" },
  impl: { kind: "mock", output: { ok: true } },
  ...extra,
});
const spec = (tools: unknown[], extra: Record<string, unknown> = {}) =>
  AgentSpec.parse({ version: 1, id: "triage", name: "Triage", tools, ...extra });

describe("getAgentSpecDiff", () => {
  it("names tools added, removed and changed field by field, schemas included", () => {
    const before = spec([tool("search"), tool("mail")]);
    const after = spec(
      [
        tool("search", { argsSchema: { type: "object", properties: { q: { type: "number" } } } }),
        tool("lookup"),
      ],
      { description: "new", llm: { provider: "offline", model: "offline", temperature: 0.5 } },
    );
    const diff = getAgentSpecDiff(before, after);
    expect(diff.tools.added).toEqual(["lookup"]);
    expect(diff.tools.removed).toEqual(["mail"]);
    expect(diff.tools.changed).toEqual([
      { name: "search", changes: [{ path: "argsSchema.properties.q.type", from: "string", to: "number" }] },
    ]);
    expect(diff.other).toEqual([{ path: "description", from: "", to: "new" }]);
    expect(diff.llm).toEqual([{ path: "llm.temperature", from: 0, to: 0.5 }]);
    expect(isEmptyAgentSpecDiff(diff)).toBe(false);
  });

  it("is empty for the same spec, whatever the layout", () => {
    const before = spec([tool("search")]);
    const after = spec([tool("search")], { layout: { nodes: { search: { x: 5, y: 9 } } } });
    expect(isEmptyAgentSpecDiff(getAgentSpecDiff(before, after))).toBe(true);
  });
});
