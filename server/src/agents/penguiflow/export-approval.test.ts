import { AgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { exportPenguiflow } from "./export-penguiflow.js";

const spec = AgentSpec.parse({
  version: 1,
  id: "payments",
  name: "Payments",
  approval: { timeoutS: 7_200, onTimeout: "fail" },
  tools: [
    {
      name: "refund",
      desc: "Refunds an order.",
      sideEffects: "write",
      requiresApproval: true,
      approval: { timeoutS: 120, onTimeout: "reject" },
      impl: { kind: "mock", output: { refunded: true } },
    },
    { name: "lookup", desc: "Finds an order.", sideEffects: "read", impl: { kind: "mock", output: {} } },
  ],
});

describe("time limits on waiting in the PenguiFlow export", () => {
  it("puts a tool's approval in its NodeSpec.extra and the agent's in WADDLE_ONLY, and says so in the README", () => {
    const { files } = exportPenguiflow(spec);
    const catalog = files["catalog.py"]!;
    // Once: in refund's NodeSpec.extra; lookup sets none and inherits nothing there.
    expect(catalog.split('"approval": {"timeout_s": 120, "on_timeout": "reject"}')).toHaveLength(2);
    expect(catalog.split('"approval"')).toHaveLength(2);
    expect(files["planner.py"]).toMatch(
      /WADDLE_ONLY: [\s\S]*"approval": \{"timeout_s": 7200, "on_timeout": "fail"\}/,
    );
    expect(files["README.md"]).toContain("NodeSpec.extra approval {timeout_s, on_timeout}");
  });
});
