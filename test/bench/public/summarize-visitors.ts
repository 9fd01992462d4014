import { getPercentile, getSummary, type Summary } from "../stats.js";
import type { VisitorSample } from "./visitor-stream.js";

/** The figures of one batch of visitors who streamed at once. */
export interface VisitorFigures {
  visitors: number;
  /** Visitors without a whole answer, and the first few reasons. */
  errors: number;
  errorReasons: string[];
  /** `POST sessions` → 201. */
  session: Summary;
  /** `POST …/turns` sent → the first `delta` read. */
  firstDelta: Summary;
  /** Every gap between two deltas of the same stream, all streams pooled. */
  gap: Summary;
  /** The largest of the streams' own p99 gaps: the worst-served visitor. */
  worstStreamP99Gap: number;
  /** Deltas per answer (median). */
  deltasPerStream: number;
  /** `POST …/turns` sent → `done` read. */
  wholeAnswer: Summary;
  /** The first `POST sessions` sent → the last `done` read. */
  wallMs: number;
}

const EMPTY: Summary = { n: 0, min: NaN, median: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN };
const summarize = (values: readonly number[]) => (values.length === 0 ? EMPTY : getSummary(values));

/** The gaps between consecutive deltas of one stream. */
export function getDeltaGaps(deltaAt: readonly number[]): number[] {
  return deltaAt.slice(1).map((at, index) => at - deltaAt[index]!);
}

/**
 * Pools the samples of visitors who streamed at once: latencies from the visitors who got a whole
 * answer (a failed one counts as an error, not as a fast or slow answer), wall time over all of them.
 */
export function summarizeVisitors(samples: readonly VisitorSample[]): VisitorFigures {
  if (samples.length === 0) throw new RangeError("summarizeVisitors needs at least one visitor.");
  const whole = samples.filter((sample) => sample.error === null);
  const failed = samples.filter((sample) => sample.error !== null);
  const gaps = whole.map((sample) => getDeltaGaps(sample.deltaAt));
  const streamP99s = gaps.filter((list) => list.length > 0).map((list) => getSummary(list).p99);
  return {
    visitors: samples.length,
    errors: failed.length,
    errorReasons: [...new Set(failed.map((sample) => sample.error!))].slice(0, 3),
    session: summarize(whole.map((sample) => sample.sessionMs)),
    firstDelta: summarize(whole.map((sample) => sample.deltaAt[0]! - sample.turnSentAt)),
    gap: summarize(gaps.flat()),
    worstStreamP99Gap: streamP99s.length === 0 ? NaN : Math.max(...streamP99s),
    deltasPerStream:
      whole.length === 0
        ? NaN
        : getPercentile(
            whole.map((sample) => sample.deltaAt.length).sort((a, b) => a - b),
            50,
          ),
    wholeAnswer: summarize(whole.map((sample) => sample.endedAt - sample.turnSentAt)),
    wallMs:
      Math.max(...samples.map((sample) => sample.endedAt)) -
      Math.min(...samples.map((sample) => sample.startedAt)),
  };
}
