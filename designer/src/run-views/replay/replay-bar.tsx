import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactElement } from "react";
import { formatClock } from "../../util/format-metrics.js";
import { formatSpeed, REPLAY_SPEEDS } from "../../runs/replay/replay-clock.js";
import { animationFrames, createFrameThrottle, type FrameScheduler } from "./replay-frame-throttle.js";
import type { ReplayMarker } from "./replay-markers.js";

export interface ReplayBarProps {
  /** Events applied (0..length). */
  position: number;
  length: number;
  playing: boolean;
  speed: number;
  /** Run time at the position and in all (ms from the first event). */
  elapsedMs: number;
  totalMs: number;
  markers?: readonly ReplayMarker[];
  /** What the run was doing at the position (the last timeline entry's title). */
  latest?: string | undefined;
  onSeek(position: number): void;
  onTogglePlay(): void;
  onStep(delta: number): void;
  onSpeed(speed: number): void;
  scheduler?: FrameScheduler;
}

/** The replay transport: step back, play/pause, step forward, the scrubber with markers, speed. */
export function ReplayBar(props: ReplayBarProps): ReactElement {
  const { position, length, playing } = props;
  // the thumb follows the pointer at once; the canvas follows once per frame
  const [draft, setDraft] = useState<number | null>(null);
  const onSeekRef = useRef(props.onSeek);
  useEffect(() => {
    onSeekRef.current = props.onSeek;
  }, [props.onSeek]);
  const throttle = useMemo(
    () =>
      createFrameThrottle<number>((value) => onSeekRef.current(value), props.scheduler ?? animationFrames),
    [props.scheduler],
  );
  useEffect(() => () => throttle.cancel(), [throttle]);
  const shown = draft ?? position;
  const release = () => {
    throttle.flush();
    setDraft(null);
  };
  const atEnd = position >= length;
  const valueText = `Event ${shown} of ${length}, ${formatClock(props.elapsedMs)} of ${formatClock(props.totalMs)}`;
  return (
    <div className="replay-bar" data-testid="replay-controls" role="group" aria-label="Replay">
      <div className="replay-buttons">
        <button
          type="button"
          className="replay-button"
          data-testid="replay-step-back"
          aria-label="Step back one event"
          title="Step back (←)"
          disabled={position <= 0}
          onClick={() => props.onStep(-1)}
        >
          <ReplayGlyph name="back" />
        </button>
        <button
          type="button"
          className="replay-button is-primary"
          data-testid="replay-play"
          aria-label={playing ? "Pause replay" : atEnd ? "Replay from the start" : "Play replay"}
          aria-pressed={playing}
          title={playing ? "Pause (space)" : "Play (space)"}
          disabled={length === 0}
          onClick={props.onTogglePlay}
        >
          <ReplayGlyph name={playing ? "pause" : "play"} />
        </button>
        <button
          type="button"
          className="replay-button"
          data-testid="replay-step-forward"
          aria-label="Step forward one event"
          title="Step forward (→)"
          disabled={atEnd}
          onClick={() => props.onStep(1)}
        >
          <ReplayGlyph name="forward" />
        </button>
      </div>
      <div className="replay-track">
        <input
          type="range"
          className="replay-scrubber"
          data-testid="replay-scrubber"
          aria-label="Replay position"
          aria-valuetext={valueText}
          min={0}
          max={length}
          step={1}
          value={shown}
          style={{ "--replay-progress": `${length > 0 ? (shown / length) * 100 : 0}%` } as CSSProperties}
          onChange={(event) => {
            const value = Number(event.target.value);
            setDraft(value);
            throttle.push(value);
          }}
          onPointerUp={release}
          onKeyUp={release}
          onBlur={() => setDraft(null)}
        />
        {props.markers && props.markers.length > 0 ? (
          <div className="replay-markers" aria-hidden="true">
            {props.markers.map((marker) => (
              <span
                key={marker.position}
                className={`replay-marker is-${marker.tone}`}
                style={{ left: `${marker.at * 100}%` }}
                title={marker.title}
                onClick={() => props.onSeek(marker.position)}
              />
            ))}
          </div>
        ) : null}
      </div>
      <output className="replay-position" data-testid="replay-position" aria-live="off">
        <span>
          Event <strong>{shown}</strong> of {length}
        </span>
        <span className="replay-time">
          {formatClock(props.elapsedMs)} / {formatClock(props.totalMs)}
        </span>
      </output>
      <span className="replay-latest" data-testid="replay-latest">
        {props.latest ?? (shown === 0 ? "Before the first event" : "")}
      </span>
      <select
        className="input replay-speed"
        data-testid="replay-speed"
        aria-label="Replay speed"
        value={String(props.speed)}
        onChange={(event) => props.onSpeed(Number(event.target.value))}
      >
        {REPLAY_SPEEDS.map((speed) => (
          <option key={speed} value={String(speed)}>
            {formatSpeed(speed)}
          </option>
        ))}
      </select>
    </div>
  );
}

const GLYPHS = {
  play: "M7 4.5v15l12-7.5-12-7.5Z",
  pause: "M7 5h3.5v14H7zM13.5 5H17v14h-3.5z",
  back: "M6 5v14M19 5 9 12l10 7V5Z",
  forward: "M18 5v14M5 5l10 7-10 7V5Z",
} as const;

function ReplayGlyph({ name }: { name: keyof typeof GLYPHS }): ReactElement {
  return (
    <svg className="icon" width={16} height={16} viewBox="0 0 24 24" aria-hidden="true">
      <path
        d={GLYPHS[name]}
        fill="currentColor"
        stroke="currentColor"
        strokeWidth={1.2}
        strokeLinejoin="round"
      />
    </svg>
  );
}
