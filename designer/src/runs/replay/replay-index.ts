import type { AgentSpec, RunEvent } from "@waddle/protocol";
import { applyRunEvents, createRunView } from "../fold/apply-run-event.js";
import type { RunView } from "../fold/run-view.js";

/** A finished run's events, folded once with a checkpoint every N events so that any jump is cheap. */
export interface ReplayIndex {
  /** Number of events; positions run from 0 (nothing applied) to `length` (the whole run). */
  readonly length: number;
  readonly events: readonly RunEvent[];
  /** The view after the first `position` events (clamped to 0..length). */
  getViewAt(position: number): RunView;
  /** The position just after the event with this `seq` (where a click on its timeline entry jumps). */
  getPositionOfSeq(seq: number): number;
}

export interface ReplayIndexOptions {
  /** Events between checkpoints (default 200): a jump folds at most this many. */
  every?: number;
  spec?: AgentSpec;
  runId?: string;
}

/**
 * Builds the replay of a run: folds its events once, keeping the view every `every` events (views are
 * immutable and share what did not change, so a checkpoint costs little). A jump folds from the nearest
 * checkpoint at or before it; stepping forward folds on from the last view asked for.
 */
export function createReplayIndex(
  events: readonly RunEvent[],
  options: ReplayIndexOptions = {},
): ReplayIndex {
  const every = Math.max(1, Math.floor(options.every ?? 200));
  const context = options.spec === undefined ? {} : { spec: options.spec };
  const ordered = getOrderedEvents(events);
  const first = createRunView(options.runId ?? ordered[0]?.runId ?? "");
  const checkpoints: RunView[] = [first];
  let view = first;
  for (let start = 0; start + every <= ordered.length; start += every) {
    view = applyRunEvents(view, ordered.slice(start, start + every), context);
    checkpoints.push(view);
  }
  let last = { position: 0, view: first };

  const getViewAt = (position: number): RunView => {
    const target = Math.max(0, Math.min(ordered.length, Math.floor(position)));
    if (target === last.position) return last.view;
    const checkpoint = Math.floor(target / every);
    let from = checkpoint * every;
    let base = checkpoints[checkpoint] ?? first;
    if (last.position > from && last.position < target) {
      from = last.position;
      base = last.view;
    }
    const result = from === target ? base : applyRunEvents(base, ordered.slice(from, target), context);
    last = { position: target, view: result };
    return result;
  };

  const getPositionOfSeq = (seq: number): number => {
    let low = 0;
    let high = ordered.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((ordered[middle]?.seq ?? Infinity) <= seq) low = middle + 1;
      else high = middle;
    }
    return low;
  };

  return { length: ordered.length, events: ordered, getViewAt, getPositionOfSeq };
}

/** Events in `seq` order without duplicates (a stored stream already is; a merged one may not be). */
function getOrderedEvents(events: readonly RunEvent[]): readonly RunEvent[] {
  let sorted = true;
  for (let index = 1; index < events.length; index += 1) {
    if ((events[index]?.seq ?? 0) <= (events[index - 1]?.seq ?? 0)) {
      sorted = false;
      break;
    }
  }
  if (sorted) return events;
  const bySeq = new Map<number, RunEvent>();
  for (const event of events) if (!bySeq.has(event.seq)) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((left, right) => left.seq - right.seq);
}
