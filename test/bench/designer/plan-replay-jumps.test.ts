import { describe, expect, it } from "vitest";
import { getBenchGroups, getToolName } from "./bench-agent-spec.js";
import { makeReplayEvents } from "./make-replay-events.js";
import { planReplayJumps } from "./plan-replay-jumps.js";

const tools = Array.from({ length: 300 }, (_, index) => getToolName(index));
const events = makeReplayEvents({
  runId: "run-jumps",
  agentId: "designer-bench",
  agentVersion: 1,
  tools,
  groups: getBenchGroups(300),
  events: 10_000,
  startTs: 0,
});

describe("planReplayJumps", () => {
  it("lands just after a first tool_start of a shown tool, near each fraction, never the same tool twice in a row", () => {
    const shown = ["tool_3", "tool_4", "tool_5", "tool_16"];
    const jumps = planReplayJumps({ events, tools: shown, fractions: [0.05, 0.95, 0.5, 0.5] });
    expect(jumps).toHaveLength(4);
    for (const jump of jumps) {
      const event = events[jump.position - 1];
      expect(event?.type).toBe("tool_start");
      expect(event?.type === "tool_start" && event.data.tool).toBe(jump.tool);
      expect(shown).toContain(jump.tool);
    }
    // each tool is called about every 300 steps (some 3,500 events): near, not exact
    expect(Math.abs(jumps[0]!.position - 500)).toBeLessThan(2_000);
    expect(Math.abs(jumps[1]!.position - 9_500)).toBeLessThan(2_000);
    jumps.slice(1).forEach((jump, index) => expect(jump.tool).not.toBe(jumps[index]!.tool));
  });

  it("plans nothing when no shown tool ever starts", () => {
    expect(planReplayJumps({ events, tools: ["not_a_tool"] })).toEqual([]);
  });
});
