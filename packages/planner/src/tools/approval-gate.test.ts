import { PlannerOptions } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultApprovalGate } from "./approval-gate.js";
import { fromDefinition } from "../catalog/catalog.js";
import { defineTool } from "../catalog/tool.js";

const base = { name: "send", desc: "Send", args: z.object({}), out: z.object({}), run: () => ({}) };
const request = (
  tool: ReturnType<typeof fromDefinition>,
  options = PlannerOptions.parse({}),
  approved = false,
) => ({
  tool,
  args: { to: "a" },
  source: "llm" as const,
  options,
  approved,
});

describe("defaultApprovalGate", () => {
  it("pauses for requiresApproval and for listed side effects, unless already approved", () => {
    const flagged = fromDefinition(defineTool({ ...base, requiresApproval: true, safetyNotes: "Real mail" }));
    expect(defaultApprovalGate(request(flagged))).toEqual({
      pause: true,
      payload: {
        tool: "send",
        args: { to: "a" },
        sideEffects: "pure",
        why: "requires_approval",
        safetyNotes: "Real mail",
      },
    });
    expect(defaultApprovalGate(request(flagged, undefined, true))).toEqual({ pause: false });
    const external = fromDefinition(defineTool({ ...base, sideEffects: "external" }));
    expect(defaultApprovalGate(request(external))).toEqual({ pause: false });
    const policy = PlannerOptions.parse({ approvalSideEffects: ["external"] });
    expect(defaultApprovalGate(request(external, policy))).toMatchObject({
      pause: true,
      payload: { why: "side_effects" },
    });
  });
});
