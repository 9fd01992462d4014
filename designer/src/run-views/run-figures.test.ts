import {
  applyRunSummary,
  createRunSummary,
  getRunFigures,
  getRunTokens,
  type RunEvent,
  type RunRecord,
} from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { compareRuns } from "../runs/compare/compare-runs.js";
import { applyRunEvents, createRunView } from "../runs/fold/apply-run-event.js";
import { createReplayIndex } from "../runs/replay/replay-index.js";
import { getRunFixture, type RunFixtureName } from "../testing/run-fixtures.js";
import { getCompareTotals } from "./compare/compare-totals.js";
import { getRunHistoryRow } from "./history/run-history-rows.js";
import { getTimelineRows } from "./panel/get-timeline-rows.js";
import { formatCount } from "../util/format-metrics.js";

const FIXTURES: RunFixtureName[] = [
  "document-pipeline",
  "sharded-research",
  "support-triage",
  "email-approval",
  "scripted",
  "parallel-failure",
];

/** The run record the server keeps from these events: usage folded like its recorder, steps from metadata. */
function getRecord(events: readonly RunEvent[]): RunRecord {
  const summary = events.reduce(applyRunSummary, createRunSummary());
  const finished = events.findLast((event) => event.type === "run_finished");
  return {
    id: events[0]!.runId,
    agentId: "a",
    agentVersion: 1,
    status: summary.status,
    query: "q",
    result: null,
    usage: summary.usage,
    startedAt: null,
    finishedAt: null,
    ...(finished?.type === "run_finished" ? { steps: finished.data.metadata.steps } : {}),
  };
}

/**
 * One step count and one token figure for a run, whichever view shows it: the live totals at every point
 * of the run, the finished run, the timeline's step headers and their tokens, the history row, the
 * comparison and the replay all agree with `getRunFigures` of @waddle/protocol (the server's summary).
 */
describe("one step count and one token figure in every view", () => {
  it.each(FIXTURES)("%s", (name) => {
    const { spec, events } = getRunFixture(name);
    const figures = getRunFigures(events);
    expect(figures.steps).toBeGreaterThan(0);

    // live: event by event, the header's figures are the summary's of the events so far
    let live = createRunView(events[0]!.runId);
    for (let index = 0; index < events.length; index += 1) {
      live = applyRunEvents(live, [events[index]!], { spec });
      const sofar = getRunFigures(events.slice(0, index + 1));
      expect(live.totals.steps).toBe(sofar.steps);
      expect(getRunTokens(live.totals)).toBe(sofar.tokens);
    }

    // final: the whole run folded at once (a reload, a replay's end)
    const final = applyRunEvents(createRunView(events[0]!.runId), events, { spec });
    expect(final.totals.steps).toBe(figures.steps);
    expect(getRunTokens(final.totals)).toBe(figures.tokens);
    expect(final.totals).toEqual(live.totals);

    // timeline: a "Step N" header for each step done and no more; the answer is not a step
    const rows = getTimelineRows(final.timeline, final.steps, { stepsDone: final.totals.steps, ended: true });
    const done = new Set(rows.flatMap((row) => (row.type === "step" && row.done ? [row.step] : [])));
    expect(done.size).toBe(figures.steps);
    const labels = rows.flatMap((row) => (row.type === "step" ? [row.label] : []));
    expect(labels).not.toContain(`Step ${figures.steps + 1}`);
    if (final.finish?.reason === "answer_complete") expect(labels.at(-1)).toBe("Answer");
    // and the steps' tokens add up to the run's
    expect(final.steps.reduce((sum, step) => sum + step.tokens, 0)).toBe(figures.tokens);

    // history: the row of the record the server keeps
    const row = getRunHistoryRow(getRecord(events), 0);
    expect(row.steps).toBe(figures.steps);
    expect(row.tokens).toBe(figures.tokens);

    // compare: the totals rows
    const byKey = Object.fromEntries(
      getCompareTotals(compareRuns(final, final)).map((item) => [item.key, item]),
    );
    expect(byKey.steps?.left).toBe(formatCount(figures.steps));
    expect(byKey.tokens?.left).toBe(formatCount(figures.tokens));

    // replay: at its end, and at every checkpoint, the same figures as the run so far
    const replay = createReplayIndex(events, { spec, every: 7 });
    expect(replay.getViewAt(replay.length).totals).toEqual(final.totals);
    for (let position = 0; position <= replay.length; position += 5) {
      const sofar = getRunFigures(events.slice(0, position));
      expect(replay.getViewAt(position).totals.steps).toBe(sofar.steps);
    }
  });
});
