import { describe, expect, it } from "vitest";
import { validateAgentSpec } from "./validate-agent-spec.js";

const mock = { kind: "mock", output: { ok: true } };
const spec = (extra: Record<string, unknown>, tool: Record<string, unknown> = {}) => ({
  version: 1,
  id: "payments",
  name: "Payments",
  tools: [{ name: "refund", desc: "Refunds an order.", sideEffects: "write", impl: mock, ...tool }],
  ...extra,
});
const approval = { timeoutS: 120, onTimeout: "reject" };

describe("approval (time limits on waiting for a person)", () => {
  it("is taken on a tool and on the agent", () => {
    const result = validateAgentSpec(
      spec({ approval: { timeoutS: 3_600, onTimeout: "fail" } }, { requiresApproval: true, approval }),
    );
    expect(result.ok).toBe(true);
    expect(result.spec?.approval).toEqual({ timeoutS: 3_600, onTimeout: "fail" });
    expect(result.spec?.tools[0]?.approval).toEqual(approval);
    expect(result.issues).toEqual([]);
  });

  it("refuses an unknown action, a limit under a second and unknown fields, naming the field", () => {
    const bad = validateAgentSpec(
      spec({}, { requiresApproval: true, approval: { timeoutS: 0, onTimeout: "ignore", after: 1 } }),
    );
    expect(bad.ok).toBe(false);
    expect(bad.issues.map((issue) => [issue.path, issue.code])).toEqual(
      expect.arrayContaining([
        ["$.tools[0].approval.timeoutS", "too_small"],
        ["$.tools[0].approval.onTimeout", "invalid_value"],
        ["$.tools[0].approval.after", "unknown_key"],
      ]),
    );
  });

  it("warns when a tool's limit can never apply, and not when its side effects pause it", () => {
    const unused = validateAgentSpec(spec({}, { approval }));
    expect(unused.ok).toBe(true);
    expect(unused.issues).toEqual([
      expect.objectContaining({
        severity: "warning",
        code: "approval_without_pause",
        path: "$.tools[0].approval",
        target: { kind: "tool", id: "refund" },
      }),
    ]);
    const bySideEffect = validateAgentSpec(
      spec({ planner: { approvalSideEffects: ["write"] } }, { approval }),
    );
    expect(bySideEffect.issues).toEqual([]);
  });

  it("warns when the agent never pauses", () => {
    const result = validateAgentSpec(spec({ approval, planner: { pauseEnabled: false } }));
    expect(result.issues).toEqual([
      expect.objectContaining({
        code: "approval_without_pause",
        path: "$.approval",
        target: { kind: "agent" },
      }),
    ]);
  });
});
