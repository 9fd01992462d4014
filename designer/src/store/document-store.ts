import type { AgentSpec } from "@waddle/protocol";
import { createStore, type StoreApi } from "zustand/vanilla";
import { applySpecChange } from "./apply-spec-change.js";
import { EMPTY_SELECTION, getPrunedSelection, isSameSelection, type Selection } from "../model/selection.js";
import { getChangeLabel, type SpecChange } from "../model/spec-change.js";

/** One undo step: the changes it made (re-applied on redo) and the spec before them. */
export interface HistoryEntry {
  id: number;
  label: string;
  changes: SpecChange[];
  before: AgentSpec;
  coalesceKey?: string;
}

export interface DispatchOptions {
  /** Consecutive changes with the same key (typing in one field) merge into one undo step. */
  coalesceKey?: string;
}

export interface DocumentState {
  spec: AgentSpec;
  /** The saved agent this document edits, or null for a new one. */
  agentId: string | null;
  /** The server version this document is based on (sent as `baseVersion` on save). */
  baseVersion: number | null;
  past: HistoryEntry[];
  future: HistoryEntry[];
  /** The id of the last history entry at load or save time (null: before any entry). */
  savedMarker: number | null;
  selection: Selection;
  /** Counts loads, so that views can react to a new document (fit the view) but not to edits. */
  loadCount: number;
  /** Replaces the document (open, reload, new agent); clears history and selection. */
  load(options: { spec: AgentSpec; agentId: string | null; version: number | null }): void;
  /** Applies and records a change; returns false when it changed nothing. */
  dispatch(change: SpecChange, options?: DispatchOptions): boolean;
  /** Runs `perform`; every change it dispatches becomes one undo step labelled `label`. */
  transact(label: string, perform: () => void): void;
  undo(): boolean;
  redo(): boolean;
  /** Records a successful save: the document is clean and based on `version`. */
  markSaved(options: { agentId: string; version: number }): void;
  setSelection(selection: Selection): void;
  /** Ends coalescing, so the next edit starts a new undo step. */
  seal(): void;
}

export type DocumentStore = StoreApi<DocumentState>;

const HISTORY_LIMIT = 300;

/**
 * Creates the document store: the AgentSpec being edited, its undo history and the selection.
 * The rules: `designer/docs/undo-history.md`.
 */
export function createDocumentStore(initial: {
  spec: AgentSpec;
  /** True while the document may not change (a role without `agents:write`): edits and undo do nothing. */
  isReadOnly?: () => boolean;
}): DocumentStore {
  const isReadOnly = initial.isReadOnly ?? (() => false);
  let nextEntryId = 1;
  let sealed = true;
  let transaction: { label: string; before: AgentSpec; changes: SpecChange[] } | null = null;

  return createStore<DocumentState>()((set, get) => {
    const commit = (
      spec: AgentSpec,
      patch: Partial<DocumentState>,
      renamed?: { from: string; to: string },
    ) => {
      const selection = getPrunedSelection(spec, get().selection, renamed);
      set({ ...patch, spec, selection });
    };
    const pushEntry = (entry: Omit<HistoryEntry, "id">): HistoryEntry[] => {
      const past = [...get().past, { ...entry, id: nextEntryId++ }];
      return past.length > HISTORY_LIMIT ? past.slice(past.length - HISTORY_LIMIT) : past;
    };

    return {
      spec: initial.spec,
      agentId: null,
      baseVersion: null,
      past: [],
      future: [],
      savedMarker: null,
      selection: EMPTY_SELECTION,
      loadCount: 0,

      load({ spec, agentId, version }) {
        sealed = true;
        transaction = null;
        set({
          spec,
          agentId,
          baseVersion: version,
          past: [],
          future: [],
          savedMarker: null,
          selection: EMPTY_SELECTION,
          loadCount: get().loadCount + 1,
        });
      },

      dispatch(change, options = {}) {
        if (isReadOnly()) return false;
        const state = get();
        const next = applySpecChange(state.spec, change);
        if (next === state.spec) return false;
        const renamed = change.type === "renameTool" ? { from: change.from, to: change.to } : undefined;
        if (transaction) {
          transaction.changes.push(change);
          commit(next, {}, renamed);
          return true;
        }
        const last = state.past.at(-1);
        const canMerge =
          !sealed &&
          last !== undefined &&
          options.coalesceKey !== undefined &&
          last.coalesceKey === options.coalesceKey;
        const past = canMerge
          ? [...state.past.slice(0, -1), { ...last, changes: [...last.changes, change] }]
          : pushEntry({
              label: getChangeLabel(change),
              changes: [change],
              before: state.spec,
              coalesceKey: options.coalesceKey,
            });
        sealed = options.coalesceKey === undefined;
        commit(next, { past, future: [] }, renamed);
        return true;
      },

      transact(label, perform) {
        if (transaction) return perform();
        if (isReadOnly()) return;
        const open = { label, before: get().spec, changes: [] as SpecChange[] };
        transaction = open;
        try {
          perform();
        } finally {
          transaction = null;
        }
        if (open.changes.length === 0) return;
        sealed = true;
        set({ past: pushEntry({ label, changes: open.changes, before: open.before }), future: [] });
      },

      undo() {
        const { past, future } = get();
        const entry = past.at(-1);
        if (!entry || transaction || isReadOnly()) return false;
        sealed = true;
        commit(entry.before, { past: past.slice(0, -1), future: [...future, entry] });
        return true;
      },

      redo() {
        const { past, future, spec } = get();
        const entry = future.at(-1);
        if (!entry || transaction || isReadOnly()) return false;
        sealed = true;
        const next = entry.changes.reduce(applySpecChange, spec);
        commit(next, { past: [...past, entry], future: future.slice(0, -1) });
        return true;
      },

      markSaved({ agentId, version }) {
        sealed = true;
        set({ agentId, baseVersion: version, savedMarker: get().past.at(-1)?.id ?? null });
      },

      setSelection(selection) {
        sealed = true;
        if (!isSameSelection(selection, get().selection)) set({ selection });
      },

      seal() {
        sealed = true;
      },
    };
  });
}

/** True when the document differs from what the server holds (or was never saved). */
export function getIsDirty(state: Pick<DocumentState, "agentId" | "past" | "savedMarker">): boolean {
  return state.agentId === null || (state.past.at(-1)?.id ?? null) !== state.savedMarker;
}
