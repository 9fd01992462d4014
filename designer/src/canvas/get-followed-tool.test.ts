import { describe, expect, it } from "vitest";
import type { NodeRunView } from "../runs/fold/run-view.js";
import { getFollowedTool, isWellInView } from "./get-followed-tool.js";

const node = (state: NodeRunView["state"], changedSeq: number): NodeRunView => ({
  state,
  calls: 1,
  failures: 0,
  totalMs: 0,
  attempt: 0,
  lastCallId: null,
  changedSeq,
});

describe("the tool a run's view follows", () => {
  it("is the latest running tool, ahead of tools that finished later", () => {
    expect(getFollowedTool({ a: node("succeeded", 9), b: node("running", 4), c: node("running", 6) })).toBe(
      "c",
    );
    expect(getFollowedTool({ a: node("awaiting_approval", 3), b: node("succeeded", 8) })).toBe("a");
  });

  it("stays on the tool touched last between steps and after the end; none before the first", () => {
    expect(getFollowedTool({ a: node("succeeded", 3), b: node("failed", 7), c: node("idle", 0) })).toBe("b");
    expect(getFollowedTool({ a: node("idle", 0) })).toBeNull();
    expect(getFollowedTool({})).toBeNull();
  });

  it("asks for a pan only when the tool is not well inside the view", () => {
    const view = { x: 0, y: 0, width: 1000, height: 800 };
    expect(isWellInView({ x: 400, y: 300, width: 240, height: 92 }, view)).toBe(true);
    expect(isWellInView({ x: 900, y: 300, width: 240, height: 92 }, view)).toBe(false);
    expect(isWellInView({ x: 400, y: 20, width: 240, height: 92 }, view)).toBe(false);
  });
});
