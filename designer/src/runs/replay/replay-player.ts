import type { ReplayIndex } from "./replay-index.js";
import { advanceReplay, getReplayGaps } from "./replay-clock.js";

/** Schedules a callback for the next animation frame. */
export type ScheduleFrame = (callback: () => void) => void;

export interface ReplayPlayer {
  play(): void;
  pause(): void;
  setSpeed(speed: number): void;
  /** Moves to a position; playback (if on) goes on from there. */
  seek(position: number): void;
  readonly playing: boolean;
  readonly position: number;
  dispose(): void;
}

/**
 * Plays a replay on animation frames: each frame moves the position by the time it took times the speed,
 * events spaced by their real (clamped) gaps (`ui/replay-clock.ts`). Tells every change of position or
 * playing state; stops at the end.
 */
export function createReplayPlayer(options: {
  index: ReplayIndex;
  position: number;
  speed: number;
  scheduleFrame: ScheduleFrame;
  now: () => number;
  onChange: (change: { position: number; playing: boolean }) => void;
}): ReplayPlayer {
  const { index, scheduleFrame, now, onChange } = options;
  const gaps = getReplayGaps(
    index.events.map((event) => ({ ts: event.ts, chunk: event.type === "llm_stream_chunk" })),
  );
  let position = options.position;
  let speed = options.speed;
  let playing = false;
  let carryMs = 0;
  let lastFrame = 0;
  /** Bumped on pause and dispose: a frame of an older loop does nothing. */
  let loop = 0;

  const frame = (current: number) => {
    if (current !== loop || !playing) return;
    const at = now();
    const tick = advanceReplay({ gaps, position, carryMs, elapsedMs: at - lastFrame, speed });
    lastFrame = at;
    carryMs = tick.carryMs;
    const moved = tick.position !== position;
    position = tick.position;
    if (tick.ended) playing = false;
    if (moved || tick.ended) onChange({ position, playing });
    if (playing) scheduleFrame(() => frame(current));
  };

  return {
    get playing() {
      return playing;
    },
    get position() {
      return position;
    },
    play() {
      if (playing) return;
      // Play at the end starts over.
      if (position >= index.length) position = 0;
      playing = true;
      carryMs = 0;
      lastFrame = now();
      loop += 1;
      const current = loop;
      onChange({ position, playing });
      scheduleFrame(() => frame(current));
    },
    pause() {
      if (!playing) return;
      playing = false;
      loop += 1;
      onChange({ position, playing });
    },
    setSpeed(next) {
      speed = Math.max(0, next);
    },
    seek(next) {
      position = Math.max(0, Math.min(index.length, Math.round(next)));
      carryMs = 0;
      lastFrame = now();
      onChange({ position, playing });
    },
    dispose() {
      playing = false;
      loop += 1;
    },
  };
}
