import {
  LATEST_CHANNEL,
  TERMINAL_RUN_STATUSES,
  type AgentSpec,
  type RunEvent,
  type RunRecord,
  type RunStatus,
} from "@waddle/protocol";
import { createStore } from "zustand/vanilla";
import { getErrorMessage } from "../api/api-error.js";
import { applyRunEvents, createRunView } from "./fold/apply-run-event.js";
import { createCompareActions } from "./compare/compare-actions.js";
import { sendResumeDecision } from "./send-resume-decision.js";
import { createSpecCache, loadRun, type LoadedRun } from "./history/load-run.js";
import { createReplayIndex } from "./replay/replay-index.js";
import { createReplayPlayer, type ReplayPlayer, type ScheduleFrame } from "./replay/replay-player.js";
import { createRunListActions } from "./history/run-list-actions.js";
import type { ReplayState, RunStore, RunStoreOptions, RunStoreState } from "./run-store-state.js";
import type { RunView } from "./fold/run-view.js";
import { getRunListFilter, upsertRun } from "./history/upsert-run.js";

export type {
  CompareSide,
  CompareState,
  ReplayState,
  ResumeInput,
  ResumeResult,
  RunMode,
  RunStore,
  RunStoreError,
  RunStoreErrorKind,
  RunStoreOptions,
  RunStoreState,
} from "./run-store-state.js";

/** The open run's plumbing, replaced on every open: async work of an older one finds itself stale. */
interface OpenRun {
  runId: string;
  spec: AgentSpec | null;
  /** Every event so far, in order (for the replay once the run ends). */
  events: RunEvent[];
  pending: RunEvent[];
  frameScheduled: boolean;
  /** The server's latest word on the status, and the seq it had then. */
  record: { status: RunStatus; lastSeq: number } | null;
  unsubscribe: (() => void) | null;
  player: ReplayPlayer | null;
}

const defaultScheduleFrame: ScheduleFrame = (callback) => {
  if (typeof globalThis.requestAnimationFrame === "function")
    globalThis.requestAnimationFrame(() => callback());
  else setTimeout(callback, 16);
};

/** Live events folded in one frame at most: a burst that came in one batch spreads over a few frames. */
const MAX_EVENTS_PER_FRAME = 500;

const INITIAL_REPLAY: ReplayState = { position: 0, length: 0, playing: false, speed: 1 };

/** The run slice when no run is shown: the store starts so, and closing a run returns to it. */
const NO_RUN_SHOWN = {
  mode: "edit",
  runId: null,
  run: null,
  view: null,
  spec: null,
  status: null,
  loading: false,
  selectedCallId: null,
  compare: null,
} as const satisfies Partial<RunStoreState>;

/**
 * The run store: the open run (live or replay), the agent's run list, comparisons. Apart from the
 * document store and its undo: run events never pass the document's dispatch. Live events are queued and
 * applied once per animation frame in one `applyRunEvents` batch.
 */
export function createRunStore(options: RunStoreOptions): RunStore {
  const { api, transport } = options;
  const scheduleFrame = options.scheduleFrame ?? defaultScheduleFrame;
  const now = options.now ?? (() => performance.now());
  const getSpec = createSpecCache(api);
  let opened: OpenRun | null = null;

  const store = createStore<RunStoreState>()((set, get) => {
    const isCurrent = (candidate: OpenRun) => opened === candidate;
    const context = (current: OpenRun) => (current.spec === null ? {} : { spec: current.spec });
    const getShownStatus = (current: OpenRun, view: RunView): RunStatus =>
      current.record !== null && current.record.lastSeq >= view.lastSeq ? current.record.status : view.status;

    const closeOpened = () => {
      opened?.unsubscribe?.();
      opened?.player?.dispose();
      opened = null;
    };

    /** Switches to replay at the end: for a run that has ended (opened so, or just now). */
    const startReplay = (current: OpenRun, run: RunRecord | null) => {
      current.unsubscribe?.();
      current.unsubscribe = null;
      const index = createReplayIndex(current.events, {
        runId: current.runId,
        ...(options.replayEvery === undefined ? {} : { every: options.replayEvery }),
        ...context(current),
      });
      const speed = get().replay.speed;
      current.player = createReplayPlayer({
        index,
        position: index.length,
        speed,
        scheduleFrame,
        now,
        onChange: ({ position, playing }) => {
          if (!isCurrent(current)) return;
          const view = index.getViewAt(position);
          // inside the run the status is the replayed one; at its end, the server's final word
          const status = position === index.length ? (get().run?.status ?? view.status) : view.status;
          set({ view, status, replay: { ...get().replay, position, playing } });
        },
      });
      const view = index.getViewAt(index.length);
      set({
        // a comparison on top stays; closing it comes back to this replay
        mode: get().mode === "compare" ? "compare" : "replay",
        run,
        view,
        status: run?.status ?? view.status,
        loading: false,
        replay: { position: index.length, length: index.length, playing: false, speed, index },
      });
    };

    const flush = (current: OpenRun) => {
      current.frameScheduled = false;
      if (!isCurrent(current) || current.pending.length === 0) return;
      const batch = current.pending.splice(0, MAX_EVENTS_PER_FRAME);
      if (current.pending.length > 0) enqueue(current, []);
      let lastSeq = current.events.at(-1)?.seq ?? 0;
      for (const event of batch) {
        if (event.seq <= lastSeq) continue;
        current.events.push(event);
        lastSeq = event.seq;
      }
      const view = applyRunEvents(get().view ?? createRunView(current.runId), batch, context(current));
      if (current.player === null && TERMINAL_RUN_STATUSES.has(view.status)) {
        const run = get().run;
        return startReplay(current, run === null ? null : { ...run, status: view.status });
      }
      set({ view, status: getShownStatus(current, view) });
    };

    const enqueue = (current: OpenRun, events: readonly RunEvent[]) => {
      if (!isCurrent(current) || events.length + current.pending.length === 0) return;
      current.pending.push(...events);
      if (current.frameScheduled) return;
      current.frameScheduled = true;
      scheduleFrame(() => flush(current));
    };

    /** The server's word on the open run's status (a status message, a run update, a fetched record). */
    const noteStatus = (current: OpenRun, status: RunStatus, lastSeq: number) => {
      if (!isCurrent(current)) return;
      current.record = { status, lastSeq };
      const { view, run } = get();
      set({
        run: run === null ? null : { ...run, status },
        ...(view ? { status: getShownStatus(current, view) } : {}),
      });
      // Ended with no event to come (cancelled while queued): nothing more will arrive.
      const seen = current.events.at(-1)?.seq ?? 0;
      if (
        TERMINAL_RUN_STATUSES.has(status) &&
        lastSeq <= seen &&
        current.player === null &&
        current.pending.length === 0
      )
        startReplay(current, get().run);
    };

    const subscribeLive = (current: OpenRun, afterSeq: number) => {
      current.unsubscribe = transport.subscribe(current.runId, afterSeq, {
        onEvents: (events) => enqueue(current, events),
        onStatus: (message) => noteStatus(current, message.status, message.lastSeq),
        onError: (error) => {
          if (isCurrent(current)) set({ error: { kind: "stream", message: error.message } });
        },
      });
    };

    const refreshOpenRun = async (runId: string, known?: RunRecord) => {
      const current = opened;
      if (current === null || current.runId !== runId) return;
      try {
        const run = known ?? (await api.getRun(runId));
        if (!isCurrent(current)) return;
        set({ run });
        noteStatus(current, run.status, run.lastSeq ?? 0);
        if (current.player === null)
          enqueue(current, await api.getRunEvents(runId, current.events.at(-1)?.seq ?? 0));
      } catch {
        // the live stream catches up anyway
      }
    };

    const list = createRunListActions({
      api,
      transport,
      get,
      set,
      ...(options.runsLimit === undefined ? {} : { runsLimit: options.runsLimit }),
      onRun: (run) => {
        if (opened !== null && opened.runId === run.id) noteStatus(opened, run.status, run.lastSeq ?? 0);
      },
    });
    const compare = createCompareActions({
      api,
      getSpec,
      get,
      set,
      getReturnMode: () => (opened === null ? "edit" : opened.player === null ? "live" : "replay"),
      onOpen: () => opened?.player?.pause(),
    });

    return {
      ...NO_RUN_SHOWN,
      agentId: null,
      runs: [],
      runsLoaded: false,
      statusFilter: null,
      showTestRuns: false,
      ratingFilter: null,
      triggerFilter: null,
      replay: INITIAL_REPLAY,
      connection: "connecting",
      error: null,

      async openRun(runId) {
        closeOpened();
        const current: OpenRun = {
          runId,
          spec: null,
          events: [],
          pending: [],
          frameScheduled: false,
          record: null,
          unsubscribe: null,
          player: null,
        };
        opened = current;
        set({
          mode: get().mode === "compare" ? "compare" : "live",
          runId,
          run: null,
          view: createRunView(runId),
          spec: null,
          status: null,
          loading: true,
          selectedCallId: null,
          error: null,
          replay: { ...INITIAL_REPLAY, speed: get().replay.speed },
        });
        let loaded: LoadedRun;
        try {
          loaded = await loadRun({ api, getSpec, runId });
        } catch (error) {
          if (isCurrent(current))
            set({ loading: false, error: { kind: "load", message: getErrorMessage(error) } });
          return;
        }
        if (!isCurrent(current)) return;
        const { run, spec, events } = loaded;
        current.spec = spec;
        current.events = events;
        current.record = { status: run.status, lastSeq: run.lastSeq ?? 0 };
        if (get().agentId === run.agentId) set({ runs: upsertRun(get().runs, run, getRunListFilter(get())) });
        if (TERMINAL_RUN_STATUSES.has(run.status)) {
          set({ spec });
          return startReplay(current, run);
        }
        const view = applyRunEvents(createRunView(runId), events, context(current));
        set({ run, spec, view, status: getShownStatus(current, view), loading: false });
        subscribeLive(current, view.lastSeq);
      },

      closeRun() {
        closeOpened();
        set({ ...NO_RUN_SHOWN, replay: { ...INITIAL_REPLAY, speed: get().replay.speed } });
      },

      async startRun(input) {
        try {
          const { runId } = await api.startRun({
            agentId: input.agentId,
            query: input.query,
            ...(input.agentVersion === undefined
              ? { channel: input.channel ?? LATEST_CHANNEL }
              : { agentVersion: input.agentVersion }),
            ...(input.toolContext === undefined ? {} : { toolContext: input.toolContext }),
            ...(input.offline ? { offline: true } : {}),
          });
          await get().openRun(runId);
          return runId;
        } catch (error) {
          set({ error: { kind: "start", message: getErrorMessage(error) } });
          return null;
        }
      },

      async cancelRun() {
        const runId = get().runId;
        if (runId === null) return;
        try {
          const answer = await api.cancelRun(runId);
          if (opened?.runId === runId) noteStatus(opened, answer.status, opened.events.at(-1)?.seq ?? 0);
        } catch (error) {
          set({ error: { kind: "cancel", message: getErrorMessage(error) } });
        }
      },

      async resume(input) {
        const { runId, view, run } = get();
        const resumeToken = view?.pause?.resumeToken ?? run?.pause?.resumeToken;
        if (runId === null || resumeToken === undefined) {
          const message = "This run is not waiting for a decision.";
          set({ error: { kind: "resume", message } });
          return { ok: false, kind: "resume", message };
        }
        const sent = await sendResumeDecision(api, runId, resumeToken, input);
        if (sent.ok) {
          set({ error: null });
          return { ok: true };
        }
        const { message } = sent;
        if (sent.conflict) {
          set({ error: { kind: "already_answered", message } });
          await refreshOpenRun(runId, sent.conflict.run);
          return { ok: false, kind: "already_answered", message };
        }
        set({ error: { kind: "resume", message } });
        if (sent.status409) await refreshOpenRun(runId);
        return { ok: false, kind: "resume", message };
      },

      watchAgent: list.watchAgent,
      setStatusFilter: list.setStatusFilter,
      setShowTestRuns: list.setShowTestRuns,
      setRatingFilter: list.setRatingFilter,
      setTriggerFilter: list.setTriggerFilter,
      refreshRuns: list.refreshRuns,

      seek(position) {
        opened?.player?.seek(position);
      },
      play() {
        opened?.player?.play();
      },
      pause() {
        opened?.player?.pause();
      },
      step(delta) {
        const player = opened?.player;
        if (!player) return;
        player.pause();
        player.seek(player.position + delta);
      },
      setSpeed(speed) {
        opened?.player?.setSpeed(speed);
        set({ replay: { ...get().replay, speed } });
      },

      openCompare: compare.openCompare,
      closeCompare: compare.closeCompare,

      selectCall(selectedCallId) {
        set({ selectedCallId });
      },
      clearError() {
        set({ error: null });
      },
      dispose() {
        closeOpened();
        list.dispose();
        stopConnection();
      },
    };
  });
  const stopConnection = transport.onConnection((connection) => store.setState({ connection }));
  return store;
}
