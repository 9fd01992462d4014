import type { TimelineEntry, TimelineKind } from "../../runs/fold/run-view.js";

/** A tick on the replay track: where something worth jumping to happened. */
export interface ReplayMarker {
  /** Replay position just after the event (the state it produced). */
  position: number;
  /** 0..1 along the track. */
  at: number;
  kind: TimelineKind;
  title: string;
  tone: "neutral" | "good" | "warn" | "bad";
}

const MARKED: ReadonlySet<TimelineKind> = new Set([
  "tool",
  "tool_error",
  "retry",
  "repair",
  "constraint",
  "parallel",
  "pause",
  "stuck",
  "guard",
  "resumed",
  "finish",
  "error",
]);

const SEVERITY = { neutral: 0, good: 1, warn: 2, bad: 3 } as const;

/**
 * The markers for a replay track, at most one per `1 / maxMarkers` of its width (the most severe wins),
 * so a run of 10,000 events draws a few hundred ticks, not thousands. `getPosition` maps an event's seq
 * to the replay position after it.
 */
export function getReplayMarkers(options: {
  timeline: readonly TimelineEntry[];
  length: number;
  getPosition(seq: number): number;
  maxMarkers?: number;
}): ReplayMarker[] {
  const { length } = options;
  const buckets = Math.max(1, options.maxMarkers ?? 240);
  if (length <= 0) return [];
  const byBucket = new Map<number, ReplayMarker>();
  for (const entry of options.timeline) {
    if (!MARKED.has(entry.kind)) continue;
    const position = Math.min(length, Math.max(0, options.getPosition(entry.seq)));
    const at = position / length;
    const bucket = Math.round(at * buckets);
    const marker: ReplayMarker = {
      position,
      at,
      kind: entry.kind,
      title: entry.title,
      tone: entry.tone ?? "neutral",
    };
    const held = byBucket.get(bucket);
    if (!held || SEVERITY[marker.tone] > SEVERITY[held.tone]) byBucket.set(bucket, marker);
  }
  return [...byBucket.values()].sort((a, b) => a.position - b.position);
}
