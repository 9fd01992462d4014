import type { RunEvent, RunEventData, RunEventType } from "@waddle/protocol";
import { createPreview } from "../util/create-preview.js";
import type { RunState } from "./run-state.js";
import type { EventSink } from "./run-types.js";

/** When an event happened: a clock reading, and the trajectory index (default: the next step's). */
export interface EventAt {
  ts: number;
  step?: number;
  /** Served from an earlier run's record (`RunEvent.cached`). */
  cached?: boolean;
}

export interface RunEventEmitterOptions {
  state: RunState;
  sink: EventSink | undefined;
  clock: () => number;
  secrets: ReadonlySet<string>;
  previewChars: number;
}

/**
 * Puts events in the protocol envelope: `seq` from the run state (contiguous, continuing across resumes),
 * `ts` from the injected clock, `step` the trajectory index. Without a sink, `seq` still advances but no
 * event or preview is built.
 */
export class RunEventEmitter {
  private readonly state: RunState;
  private readonly sink: EventSink | undefined;
  private readonly clock: () => number;
  private readonly secrets: ReadonlySet<string>;
  private readonly previewChars: number;

  constructor(options: RunEventEmitterOptions) {
    this.state = options.state;
    this.sink = options.sink;
    this.clock = options.clock;
    this.secrets = options.secrets;
    this.previewChars = options.previewChars;
  }

  /** False when nobody listens: callers skip building expensive payloads. */
  get enabled(): boolean {
    return this.sink !== undefined;
  }

  /** Takes the next `seq` without building an event: for hot paths when nobody listens. */
  skip(): void {
    this.state.seq += 1;
  }

  emit<T extends RunEventType>(type: T, data: RunEventData<T>, step?: number): void {
    this.state.seq += 1;
    if (this.sink === undefined) return;
    const { runId, seq } = this.state;
    const ts = this.clock();
    this.deliver(this.sink, {
      runId,
      seq,
      ts,
      step: step ?? this.state.steps.length,
      type,
      data,
    } as RunEvent);
  }

  /**
   * `emit` stamped with a clock reading the caller has just taken for its own use (a start or end time):
   * a step emits seven events, and each clock read costs about as much as building one.
   */
  emitAt<T extends RunEventType>(type: T, data: RunEventData<T>, at: EventAt): void {
    this.state.seq += 1;
    if (this.sink === undefined) return;
    const { runId, seq } = this.state;
    const step = at.step ?? this.state.steps.length;
    const event = { runId, seq, ts: at.ts, step, type, data } as RunEvent;
    if (at.cached === true) event.cached = true;
    this.deliver(this.sink, event);
  }

  private deliver(sink: EventSink, event: RunEvent): void {
    try {
      sink(event);
    } catch {
      // A failing listener (a closed socket, a UI bug) must not break the run it is watching.
    }
  }

  /** A bounded, secret-free preview for event payloads (undefined when nobody listens). */
  preview(value: unknown, maxChars: number = this.previewChars): unknown {
    if (this.sink === undefined) return undefined;
    return createPreview(value, { maxChars, redact: this.secrets });
  }
}
