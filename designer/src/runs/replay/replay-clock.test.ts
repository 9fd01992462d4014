import { describe, expect, it } from "vitest";
import {
  advanceReplay,
  getNextSpeed,
  getReplayGaps,
  getSteppedPosition,
  MAX_FRAME_MS,
} from "./replay-clock.js";

const options = { minGapMs: 100, minChunkGapMs: 10, maxGapMs: 1000 };

describe("getReplayGaps", () => {
  it("spaces events by their real gaps, clamped, chunks closer", () => {
    const gaps = getReplayGaps(
      [
        { ts: 0, chunk: false },
        { ts: 500, chunk: false },
        { ts: 501, chunk: false },
        { ts: 502, chunk: true },
        { ts: 3_600_000, chunk: false },
      ],
      options,
    );
    expect(Array.from(gaps)).toEqual([0, 500, 100, 10, 1000]);
  });
  it("treats a clock that went backwards as no gap", () => {
    expect(
      Array.from(
        getReplayGaps(
          [
            { ts: 10, chunk: false },
            { ts: 5, chunk: false },
          ],
          options,
        ),
      ),
    ).toEqual([0, 100]);
  });
});

describe("advanceReplay", () => {
  const gaps = [0, 100, 100, 400];
  it("moves by elapsed time times speed and carries the rest", () => {
    expect(advanceReplay({ gaps, position: 0, carryMs: 0, elapsedMs: 16, speed: 1 })).toEqual({
      position: 1,
      carryMs: 16,
      ended: false,
    });
    const tick = advanceReplay({ gaps, position: 1, carryMs: 16, elapsedMs: 100, speed: 1 });
    expect(tick).toEqual({ position: 2, carryMs: 16, ended: false });
  });
  it("goes faster at a higher speed and slower at half", () => {
    expect(advanceReplay({ gaps, position: 1, carryMs: 0, elapsedMs: 50, speed: 4 }).position).toBe(3);
    expect(advanceReplay({ gaps, position: 1, carryMs: 0, elapsedMs: 100, speed: 0.5 }).position).toBe(1);
    expect(advanceReplay({ gaps, position: 1, carryMs: 50, elapsedMs: 100, speed: 0.5 }).position).toBe(2);
  });
  it("ends at the last event", () => {
    expect(advanceReplay({ gaps, position: 3, carryMs: 0, elapsedMs: 120, speed: 8 })).toEqual({
      position: 4,
      carryMs: 0,
      ended: true,
    });
  });
  it("counts at most one long frame (a tab back from the background)", () => {
    const long = Array.from({ length: 100 }, () => 10);
    const tick = advanceReplay({ gaps: long, position: 0, carryMs: 0, elapsedMs: 60_000, speed: 1 });
    expect(tick.position).toBe(MAX_FRAME_MS / 10);
  });
});

describe("getSteppedPosition and getNextSpeed", () => {
  it("clamps steps to the run", () => {
    expect(getSteppedPosition(0, -1, 10)).toBe(0);
    expect(getSteppedPosition(9, 1, 10)).toBe(10);
    expect(getSteppedPosition(10, 1, 10)).toBe(10);
    expect(getSteppedPosition(4, -1, 10)).toBe(3);
  });
  it("walks the speed list and stays at its ends", () => {
    expect(getNextSpeed(1, 1)).toBe(2);
    expect(getNextSpeed(8, 1)).toBe(8);
    expect(getNextSpeed(0.5, -1)).toBe(0.5);
    expect(getNextSpeed(3, -1)).toBe(0.5);
  });
});
