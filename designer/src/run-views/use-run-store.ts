import { useStore } from "zustand";
import { useEditor } from "../editor/editor-context.js";
import type { RunStoreState } from "../runs/run-store.js";
import type { EdgeRunView, NodeRunView } from "../runs/fold/run-view.js";

/** A tool node's run state while a run or replay is shown; null while editing (or comparing). */
export function selectNodeRunState(state: RunStoreState, toolName: string): NodeRunView | null {
  if (state.mode === "edit" || state.mode === "compare" || state.view === null) return null;
  return state.view.nodes[toolName] ?? null;
}

/** A spec edge's transitions while a run or replay is shown; null while editing (or comparing). */
export function selectEdgeRunState(state: RunStoreState, edgeId: string): EdgeRunView | null {
  if (state.mode === "edit" || state.mode === "compare" || state.view === null) return null;
  return state.view.edges[edgeId] ?? null;
}

/** Reads the run store (`editor.runs`) through a selector: re-renders only when the selection changes. */
export function useRunStore<T>(selector: (state: RunStoreState) => T): T {
  return useStore(useEditor().runs, selector);
}

/**
 * One node's slice of the run: the fold shares unchanged nodes between views, so a node re-renders only
 * when its own state changes. Null while editing.
 */
export function useNodeRunState(toolName: string): NodeRunView | null {
  return useRunStore((state) => selectNodeRunState(state, toolName));
}

/** One edge's slice of the run (how often it was taken, the latest transition); null while editing. */
export function useEdgeRunState(edgeId: string): EdgeRunView | null {
  return useRunStore((state) => selectEdgeRunState(state, edgeId));
}
