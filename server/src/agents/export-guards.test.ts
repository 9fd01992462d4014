import { defineGuardCheck } from "@waddle/planner";
import { AgentSpec, type RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { runAgent } from "../runtime/run-agent.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { exportAgentTypeScript, getExportNeeds } from "./export-agent-typescript.js";
import { getExportBundle } from "./get-export-bundle.js";
import { exportPenguiflow } from "./penguiflow/export-penguiflow.js";

const spec = AgentSpec.parse({
  version: 1,
  id: "guarded-desk",
  name: "Guarded desk",
  tools: [{ name: "lookup", desc: "Looks a customer up", impl: { kind: "mock", output: {} } }],
  guards: [
    { name: "no-pii", on: "tool_result", check: { kind: "pii", types: ["email", "card"] }, action: "redact" },
    {
      name: "polite",
      on: "output",
      check: {
        kind: "llm",
        prompt: "Fail a rude answer.",
        llm: { provider: "openai", model: "judge-mini", baseUrl: "https://judge.example.com/v1" },
      },
      action: "block",
    },
    { name: "house-rules", on: "input", check: { kind: "module", name: "no-competitors" }, action: "flag" },
  ],
});

/** The spec as the exported module inlines it: `AgentSpec.parse(<json>)`. */
function getInlinedSpec(source: string): unknown {
  const match = /export const spec: AgentSpec = AgentSpec\.parse\(([\s\S]*?)\);\n/.exec(source);
  return JSON.parse(match![1]!);
}

describe("guards in the ts export", () => {
  it("carries every guard in the inlined spec, and allows the endpoint of an llm check's own model", () => {
    const source = exportAgentTypeScript(spec);
    expect(AgentSpec.parse(getInlinedSpec(source)).guards).toEqual(spec.guards);
    expect(getExportNeeds([spec]).llmAllow).toEqual(["https://judge.example.com"]);
    // Without a bundle, the module check is one the caller passes in, named as a guard check.
    expect(source).toContain("pass them in `moduleTools`: no-competitors (guard check)");
  });

  it("imports a module guard check's file as module tools are imported", async () => {
    const registry = new ToolRegistry();
    registry.registerGuardCheck(
      { name: "no-competitors", check: () => ({ pass: true }) },
      "user/house-rules.ts",
      "/srv/tools/house-rules.ts",
    );
    const bundle = await getExportBundle({ spec, getAgent: async () => undefined, registry });
    expect(bundle.moduleTools).toEqual([
      {
        ref: "no-competitors",
        kind: "guard_check",
        source: "user/house-rules.ts",
        file: "/srv/tools/house-rules.ts",
        projectPath: "tools/house-rules.ts",
        importPath: "./tools/house-rules.js",
      },
    ]);
    const source = exportAgentTypeScript(bundle);
    expect(source).toContain('import * as toolModule0 from "./tools/house-rules.js";');
    expect(source).toContain("export const moduleTools: unknown[] = [toolModule0];");
    expect(source).not.toContain("Not found on the exporting server");
  });
});

describe("module guard checks in an exported runtime", () => {
  it("are taken from the modules passed as moduleTools, as module tools are", async () => {
    const houseRules = {
      noCompetitors: defineGuardCheck({
        name: "no-competitors",
        check: (value) =>
          String(value).includes("Acme")
            ? { pass: false, findings: [{ kind: "competitor", count: 1 }] }
            : { pass: true },
      }),
    };
    const guarded = AgentSpec.parse({
      version: 1,
      id: "house-rules",
      name: "House rules",
      llm: { provider: "offline", model: "offline" },
      guards: [
        { name: "rules", on: "input", check: { kind: "module", name: "no-competitors" }, action: "block" },
      ],
    });
    const events: RunEvent[] = [];
    const run = (moduleTools: unknown[]) =>
      runAgent({
        spec: guarded,
        moduleTools,
        env: {},
        query: "Is Acme cheaper?",
        onEvent: (e) => events.push(e),
      });
    await expect(run([houseRules])).rejects.toMatchObject({ code: "guard_blocked" });
    expect(events.find((event) => event.type === "guard_verdict")?.data).toMatchObject({
      guard: "rules",
      verdict: "fail",
      findings: [{ kind: "competitor", count: 1 }],
    });
    // Without the module the check cannot run: it fails closed, saying which check is missing.
    events.length = 0;
    await expect(run([])).rejects.toMatchObject({ code: "guard_blocked" });
    expect(events.find((event) => event.type === "guard_verdict")?.data).toMatchObject({
      verdict: "error",
      message: expect.stringContaining("no-competitors"),
    });
  });
});

describe("guards in the PenguiFlow export", () => {
  it("lists each guard in the README as not carried (name, stage, check, action) and keeps them in WADDLE_ONLY", () => {
    const { files, report } = exportPenguiflow(spec);
    const readme = files["README.md"]!;
    expect(readme).toContain(
      "- guard no-pii (on tool_result, check pii, action redact): not carried: PenguiFlow has no guardrails",
    );
    expect(readme).toContain("- guard polite (on output, check llm, action block): not carried:");
    expect(readme).toContain("- guard house-rules (on input, check module, action flag): not carried:");
    expect(report.notCarried.filter((entry) => entry.what.startsWith("guard "))).toHaveLength(3);
    expect(files["planner.py"]).toMatch(/WADDLE_ONLY: [\s\S]*"guards": \[\s*\{\s*"name": "no-pii"/);
  });

  it("says nothing of guards for an agent without any", () => {
    const { files } = exportPenguiflow({ ...spec, guards: [] });
    expect(files["README.md"]).not.toMatch(/- guard /);
    expect(files["planner.py"]).not.toContain('"guards"');
  });
});
