import { useStore } from "zustand";
import { createStore, type StoreApi } from "zustand/vanilla";
import { useEditor, type Editor } from "../../editor/editor-context.js";
import { useRunStore } from "../use-run-store.js";
import type { ForkTarget } from "../fork/fork-edit-model.js";
import { LATEST_TARGET, type RunTargetChoice } from "../../releases/run-target.js";

export type RunPanelTab = "run" | "chat" | "history" | "compare" | "tests";

/** A message the panel keeps until dismissed or the next run (a refused decision, a failed start). */
export interface RunPanelNotice {
  tone: "error" | "info";
  message: string;
  /** `already-answered` for a pause someone else decided first. */
  kind: "already-answered" | "resume-error" | "start-error" | "info";
}

/** The run panel's own view state: whether it shows, its tab, the query being typed, an open args edit. */
export interface RunPanelState {
  open: boolean;
  tab: RunPanelTab;
  query: string;
  /** The agent the query was typed for: another agent starts with an empty box. */
  queryAgentId: string | null;
  /** The resume token of the pause whose args are being edited (the edit form is open). */
  editingToken: string | null;
  notice: RunPanelNotice | null;
  /** Set by the Run control: the query box takes the focus once, then clears it. */
  focusQuery: boolean;
  /** Where the open **Fork from here** dialog forks (null: closed). */
  forking: ForkTarget | null;
  /** What Run and a new chat start (the latest save unless picked), for `targetAgentId` only. */
  target: RunTargetChoice;
  targetAgentId: string | null;
  set(patch: Partial<Omit<RunPanelState, "set">>): void;
}

export type RunPanelStore = StoreApi<RunPanelState>;

export function createRunPanelStore(): RunPanelStore {
  return createStore<RunPanelState>()((set) => ({
    open: false,
    tab: "run",
    query: "",
    queryAgentId: null,
    editingToken: null,
    notice: null,
    focusQuery: false,
    forking: null,
    target: LATEST_TARGET,
    targetAgentId: null,
    set: (patch) => set(patch),
  }));
}

// one per editor, made on first use: the panel's view state is nobody else's business
const stores = new WeakMap<Editor, RunPanelStore>();

export function getRunPanelStore(editor: Editor): RunPanelStore {
  let store = stores.get(editor);
  if (!store) {
    store = createRunPanelStore();
    stores.set(editor, store);
  }
  return store;
}

export function useRunPanel<T>(selector: (state: RunPanelState) => T): T {
  return useStore(getRunPanelStore(useEditor()), selector);
}

/** What Run and a new chat start for the agent: the choice made for it, else the latest save. */
export function getPanelRunTarget(state: RunPanelState, agentId: string | null): RunTargetChoice {
  return state.targetAgentId !== null && state.targetAgentId === agentId ? state.target : LATEST_TARGET;
}

/** The run panel takes the right column while it is open or a run is shown (the inspector is then hidden). */
export function useRunPanelShown(): boolean {
  const open = useRunPanel((state) => state.open);
  const runShown = useRunStore((state) => state.mode !== "edit");
  return open || runShown;
}
