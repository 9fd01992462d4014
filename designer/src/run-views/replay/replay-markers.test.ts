import { describe, expect, it } from "vitest";
import type { TimelineEntry } from "../../runs/fold/run-view.js";
import { getReplayMarkers } from "./replay-markers.js";

function entry(seq: number, kind: TimelineEntry["kind"], tone?: TimelineEntry["tone"]): TimelineEntry {
  return { seq, step: 0, ts: seq, kind, title: `${kind} ${seq}`, tone };
}

describe("getReplayMarkers", () => {
  it("marks tools, errors, pauses and the finish at their positions", () => {
    const markers = getReplayMarkers({
      timeline: [entry(1, "start"), entry(3, "tool", "good"), entry(4, "plan"), entry(10, "finish", "good")],
      length: 10,
      getPosition: (seq) => seq,
    });
    expect(markers.map((marker) => [marker.position, marker.at, marker.kind])).toEqual([
      [3, 0.3, "tool"],
      [10, 1, "finish"],
    ]);
  });
  it("keeps one marker per slice of the track, the most severe", () => {
    const timeline = Array.from({ length: 10_000 }, (_, index) => entry(index + 1, "tool", "good"));
    timeline[5000] = entry(5001, "tool_error", "bad");
    const markers = getReplayMarkers({
      timeline,
      length: 10_000,
      getPosition: (seq) => seq,
      maxMarkers: 100,
    });
    expect(markers.length).toBeLessThanOrEqual(101);
    expect(markers.some((marker) => marker.kind === "tool_error" && marker.position === 5001)).toBe(true);
  });
  it("has none for an empty run", () => {
    expect(getReplayMarkers({ timeline: [entry(1, "tool")], length: 0, getPosition: (seq) => seq })).toEqual(
      [],
    );
  });
});
