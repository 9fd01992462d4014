import type { ParallelGroup } from "@waddle/protocol";
import { useMemo } from "react";
import type { EdgeRunView, NodeRunView } from "../../runs/fold/run-view.js";
import { selectEdgeRunState, useNodeRunState, useRunStore } from "../use-run-store.js";
import { getGroupProgress, type GroupProgress } from "./get-run-overlay.js";

/**
 * Per-element run selectors for the canvas: each node, edge and group frame subscribes to its own slice
 * of the run store and re-renders only when that slice changes.
 */

const IDLE: NodeRunView = Object.freeze({
  state: "idle",
  calls: 0,
  failures: 0,
  totalMs: 0,
  attempt: 0,
  lastCallId: null,
  changedSeq: 0,
});

/** True while a run, replay or comparison is shown: design editing is off. */
export function useIsRunShown(): boolean {
  return useRunStore((state) => state.mode !== "edit");
}

/** True while the canvas plays a run (live or replay): nodes and edges show its states. */
export function useIsRunPlayed(): boolean {
  return useRunStore((state) => (state.mode === "live" || state.mode === "replay") && state.view !== null);
}

/** A tool's run state while a run plays (idle when the run has not touched it), else null. */
export function useToolRunView(toolName: string): NodeRunView | null {
  const played = useIsRunPlayed();
  const node = useNodeRunState(toolName);
  return played ? (node ?? IDLE) : null;
}

/** Whether and how the run took a drawn edge, and whether that was in the latest step (it animates then). */
export function useEdgeRunView(edgeId: string): { edge: EdgeRunView; active: boolean } | null {
  const edge = useRunStore((state) => selectEdgeRunState(state, edgeId));
  const active = useRunStore((state) => {
    const current = selectEdgeRunState(state, edgeId);
    const latest = state.view?.transitions.at(-1);
    return current !== null && latest !== undefined && current.last.step === latest.step;
  });
  return useMemo(() => (edge ? { edge, active } : null), [edge, active]);
}

const NOT_RUN: GroupProgress = Object.freeze({
  total: 0,
  done: 0,
  failed: 0,
  finished: false,
  joinStatus: "none",
  joinNode: null,
  runs: 0,
});

/** A parallel group's latest fan-out in the played run (NOT_RUN before any), else null. */
export function useGroupRunProgress(group: ParallelGroup): GroupProgress | null {
  // a string key keeps the selector's answer stable between unrelated events
  const key = useRunStore((state) => {
    if ((state.mode !== "live" && state.mode !== "replay") || !state.view) return "";
    const progress = getGroupProgress({
      parallels: state.view.parallels,
      groupId: group.id,
      members: group.members,
    });
    return progress ? JSON.stringify(progress) : "-";
  });
  return useMemo(
    () => (key === "" ? null : key === "-" ? NOT_RUN : (JSON.parse(key) as GroupProgress)),
    [key],
  );
}
