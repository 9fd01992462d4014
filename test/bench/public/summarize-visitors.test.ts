import { describe, expect, it } from "vitest";
import { getDeltaGaps, summarizeVisitors } from "./summarize-visitors.js";
import type { VisitorSample } from "./visitor-stream.js";

const visitor = (start: number, deltaAt: number[], error: string | null = null): VisitorSample => ({
  startedAt: start,
  sessionMs: 5,
  turnSentAt: start + 5,
  deltaAt,
  endedAt: (deltaAt.at(-1) ?? start + 5) + 1,
  error,
});

describe("summarizeVisitors", () => {
  it("times the first delta from the turn's request and pools the gaps of every stream", () => {
    const figures = summarizeVisitors([visitor(0, [25, 55, 85]), visitor(10, [115, 145, 245])]);
    expect(figures.firstDelta.min).toBe(20);
    expect(figures.firstDelta.max).toBe(100);
    expect(figures.gap.n).toBe(4);
    expect(figures.gap.median).toBe(30);
    expect(figures.gap.max).toBe(100);
    // the second stream's own p99 lies between its two gaps (30 and 100)
    expect(figures.worstStreamP99Gap).toBeCloseTo(99.3);
    expect(figures.deltasPerStream).toBe(3);
    expect(figures.wallMs).toBe(246);
    expect(figures.errors).toBe(0);
  });

  it("counts a visitor without a whole answer as an error, out of the latencies but in the wall time", () => {
    const figures = summarizeVisitors([visitor(0, [25, 55]), visitor(0, [], "POST turns: 429")]);
    expect(figures.errors).toBe(1);
    expect(figures.errorReasons).toEqual(["POST turns: 429"]);
    expect(figures.firstDelta.n).toBe(1);
    expect(figures.session.n).toBe(1);
  });

  it("keeps the gaps within a stream only", () => {
    expect(getDeltaGaps([10, 40, 40, 100])).toEqual([30, 0, 60]);
    expect(getDeltaGaps([10])).toEqual([]);
  });
});
