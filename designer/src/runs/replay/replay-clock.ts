/**
 * The replay player's timing, as pure functions: how far playback moves in the time a frame took, at a
 * speed. Events are spaced by their real gaps, clamped: a pause that waited an hour for an approver
 * plays in a second, and a run the offline model did in 40 ms still plays at a pace one can follow.
 */

export const REPLAY_SPEEDS = [0.5, 1, 2, 4, 8] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/** What the gaps are built from: each event's time and whether it is a small streamed piece. */
export interface ReplayTiming {
  ts: number;
  /** Answer/thinking chunks: many per second, they play at their own quick pace. */
  chunk: boolean;
}

export interface ReplayGapOptions {
  /** Least wait before an event that is not a chunk (ms at 1×). */
  minGapMs?: number;
  /** Least wait before a chunk. */
  minChunkGapMs?: number;
  /** Most wait before any event. */
  maxGapMs?: number;
}

const DEFAULT_GAPS = { minGapMs: 140, minChunkGapMs: 8, maxGapMs: 1200 } as const;

/**
 * `gaps[p]` is the wait (ms at 1×) before the event at index `p` is applied, i.e. before playback goes
 * from position `p` to `p + 1`. The first event comes at once.
 */
export function getReplayGaps(events: readonly ReplayTiming[], options: ReplayGapOptions = {}): Float64Array {
  const { minGapMs, minChunkGapMs, maxGapMs } = { ...DEFAULT_GAPS, ...options };
  const gaps = new Float64Array(events.length);
  for (let index = 1; index < events.length; index += 1) {
    const event = events[index]!;
    const real = Math.max(0, event.ts - events[index - 1]!.ts);
    const floor = event.chunk ? minChunkGapMs : minGapMs;
    gaps[index] = Math.min(maxGapMs, Math.max(floor, real));
  }
  return gaps;
}

export interface ReplayTick {
  position: number;
  /** Playback time owed to the next event (kept between frames so that slow speeds still move). */
  carryMs: number;
  /** True when playback reached the end. */
  ended: boolean;
}

/** The longest frame counted: after a background tab wakes, playback goes on rather than leaping. */
export const MAX_FRAME_MS = 250;

/** Moves playback on by the frame's duration times the speed. */
export function advanceReplay(options: {
  gaps: ArrayLike<number>;
  position: number;
  carryMs: number;
  elapsedMs: number;
  speed: number;
}): ReplayTick {
  const { gaps, speed } = options;
  const length = gaps.length;
  let position = Math.min(Math.max(0, options.position), length);
  let carryMs = options.carryMs + Math.min(Math.max(0, options.elapsedMs), MAX_FRAME_MS) * Math.max(0, speed);
  while (position < length && gaps[position]! <= carryMs) {
    carryMs -= gaps[position]!;
    position += 1;
  }
  if (position >= length) return { position: length, carryMs: 0, ended: true };
  return { position, carryMs, ended: false };
}

/** A position moved by `delta` events, kept inside `0..length`. */
export function getSteppedPosition(position: number, delta: number, length: number): number {
  return Math.min(Math.max(0, Math.round(position + delta)), Math.max(0, length));
}

/** The next speed up or down the list (for `+`/`-`), staying at the ends. */
export function getNextSpeed(speed: number, direction: 1 | -1): ReplaySpeed {
  const index = REPLAY_SPEEDS.findIndex((value) => value === speed);
  const from = index === -1 ? REPLAY_SPEEDS.indexOf(1) : index;
  return REPLAY_SPEEDS[Math.min(Math.max(0, from + direction), REPLAY_SPEEDS.length - 1)]!;
}

/** `0.5×`, `1×`, `8×`. */
export function formatSpeed(speed: number): string {
  return `${speed}×`;
}
