import { AgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { exportAgentTypeScript } from "./export-agent-typescript.js";
import { exportPenguiflow } from "./penguiflow/export-penguiflow.js";

const spec = AgentSpec.parse({
  version: 1,
  id: "loop-guarded",
  name: "Loop guarded",
  planner: { stuck: { enabled: true, repeats: 4, action: "pause" } },
  tools: [{ name: "search_docs", desc: "Search", impl: { kind: "mock", output: {} } }],
});

describe("planner.stuck in the exports", () => {
  it("ts carries it in the inlined spec", () => {
    const source = exportAgentTypeScript(spec);
    expect(source).toMatch(/"stuck": \{\s*"enabled": true,\s*"repeats": 4,\s*"action": "pause"\s*\}/);
  });

  it("PenguiFlow keeps it in planner.py's WADDLE_ONLY and the README says it is not carried", () => {
    const { files, report } = exportPenguiflow(spec);
    expect(files["planner.py"]).toMatch(
      /WADDLE_ONLY: [\s\S]*"stuck": \{"enabled": True, "repeats": 4, "action": "pause"\}/,
    );
    expect(report.notCarried).toContainEqual({ what: "stuck", where: "planner.py WADDLE_ONLY" });
    expect(files["README.md"]).toContain("- stuck: planner.py WADDLE_ONLY");
  });
});
