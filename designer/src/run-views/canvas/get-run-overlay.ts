import type { TransitionProvenance } from "../../model/transition-provenance.js";
import type { ParallelView, TransitionView } from "../../runs/fold/run-view.js";

/**
 * What a run adds over the drawn graph, as plain data: temporary arcs for transitions that follow no
 * drawn edge, and a parallel group's branch progress.
 */

export const RUN_ARC_EDGE_PREFIX = "run-arc:";

export interface RunArc {
  id: string;
  source: string;
  target: string;
  provenance: TransitionProvenance;
  seq: number;
  /** Taken in the latest step (drawn bright and animated), else faded. */
  latest: boolean;
  /** How many transitions took it. */
  count: number;
}

/** The step of the latest transition, or -1 when there is none. */
function getLatestStep(transitions: readonly TransitionView[]): number {
  return transitions.at(-1)?.step ?? -1;
}

/**
 * Arcs for the most recent transitions between two tools that no drawn edge covers (one per pair, the
 * newest `limit` pairs), so the canvas shows the path the run took without piling up lines.
 */
export function getRunArcs(options: {
  transitions: readonly TransitionView[];
  tools: ReadonlySet<string>;
  limit?: number;
}): RunArc[] {
  const { transitions, tools } = options;
  const limit = options.limit ?? 8;
  const latestStep = getLatestStep(transitions);
  const byPair = new Map<string, RunArc>();
  for (const transition of transitions) {
    const { from, to, edgeId } = transition;
    if (edgeId !== null || from === null || from === to || !tools.has(from) || !tools.has(to)) continue;
    const id = `${RUN_ARC_EDGE_PREFIX}${from}->${to}`;
    const previous = byPair.get(id);
    // re-inserting moves the pair to the end, so the map ends in order of last use
    byPair.delete(id);
    byPair.set(id, {
      id,
      source: from,
      target: to,
      provenance: transition.provenance,
      seq: transition.seq,
      latest: transition.step === latestStep,
      count: (previous?.count ?? 0) + 1,
    });
  }
  return [...byPair.values()].slice(-limit);
}

export interface GroupProgress {
  total: number;
  done: number;
  failed: number;
  finished: boolean;
  joinStatus: ParallelView["joinStatus"];
  joinNode: string | null;
  /** How many fan-outs of this group the run made. */
  runs: number;
}

/** The latest fan-out of a parallel group (by `groupId`, else by its members), or null if none ran. */
export function getGroupProgress(options: {
  parallels: Readonly<Record<string, ParallelView>>;
  groupId: string;
  members: readonly string[];
}): GroupProgress | null {
  const { parallels, groupId, members } = options;
  const memberSet = new Set(members);
  let latest: ParallelView | null = null;
  let runs = 0;
  for (const parallel of Object.values(parallels)) {
    const matches =
      parallel.groupId === groupId ||
      (parallel.groupId === null &&
        parallel.nodes.length > 0 &&
        parallel.nodes.every((node) => memberSet.has(node)));
    if (!matches) continue;
    runs += 1;
    if (!latest || parallel.step > latest.step) latest = parallel;
  }
  if (!latest) return null;
  return {
    total: latest.total,
    done: latest.done,
    failed: latest.failed,
    finished: latest.finished,
    joinStatus: latest.joinStatus,
    joinNode: latest.joinNode,
    runs,
  };
}
