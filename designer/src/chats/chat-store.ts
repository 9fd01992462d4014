import {
  applySessionEvents,
  LATEST_CHANNEL,
  TERMINAL_RUN_STATUSES,
  type RunEvent,
  type SessionEvent,
} from "@waddle/protocol";
import { z } from "zod";
import { createStore } from "zustand/vanilla";
import { getErrorMessage, isApiError } from "../api/api-error.js";
import { applyRunEvents, createRunView } from "../runs/fold/apply-run-event.js";
import { sendResumeDecision } from "../runs/send-resume-decision.js";
import { createSpecCache } from "../runs/history/load-run.js";
import type { ChatGroupReport } from "./chat-types.js";
import type { ChatStore, ChatStoreOptions, ChatStoreState } from "./chat-store-state.js";
import { upsertSession } from "./session-list.js";

export type {
  ChatError,
  ChatErrorKind,
  ChatStore,
  ChatStoreOptions,
  ChatStoreState,
} from "./chat-store-state.js";

/** The open session's plumbing, replaced on every open: async work of an older one finds itself stale. */
interface OpenChat {
  sessionId: string;
  unsubscribe: (() => void) | null;
  /** Turns' runs followed live, by run id. */
  follows: Map<string, () => void>;
  loadingTurns: Set<string>;
}

const ConflictReason = z.object({ reason: z.string() });

/** The `details.reason` of a 409 (`turn_in_progress`, `session_closed`, `already_answered`), if any. */
function getConflictReason(error: unknown): string | undefined {
  if (!isApiError(error) || error.status !== 409) return undefined;
  const parsed = ConflictReason.safeParse(error.details);
  return parsed.success ? parsed.data.reason : undefined;
}

const NO_SESSION = {
  sessionId: null,
  record: null,
  groupReports: [],
  turnViews: {},
  pendingTurn: null,
  spec: null,
  drafting: false,
  loading: false,
} as const satisfies Partial<ChatStoreState>;

/**
 * The chat store: the agent's sessions (live from `session_updated`), the open session folded from its
 * own log with the protocol's `applySessionEvent` (the server's fold), the turns' runs folded with the
 * designer's `applyRunEvents` while they stream, sending turns, answering pauses and deciding merges.
 * No React; the views are in `../run-views/chat/`.
 */
export function createChatStore(options: ChatStoreOptions): ChatStore {
  const { api, runs, sessions } = options;
  const getSpec = createSpecCache(api);
  let open: OpenChat | null = null;
  let unwatch: (() => void) | null = null;

  return createStore<ChatStoreState>()((set, get) => {
    const isCurrent = (chat: OpenChat) => open === chat;

    const endChat = () => {
      if (open === null) return;
      open.unsubscribe?.();
      for (const stop of open.follows.values()) stop();
      open = null;
    };

    const stopFollow = (chat: OpenChat, runId: string) => {
      chat.follows.get(runId)?.();
      chat.follows.delete(runId);
    };

    const onTurnEvents = (chat: OpenChat, runId: string, events: readonly RunEvent[]) => {
      if (!isCurrent(chat)) return;
      const views = get().turnViews;
      const view = applyRunEvents(views[runId] ?? createRunView(runId), events);
      set({ turnViews: { ...views, [runId]: view } });
      if (TERMINAL_RUN_STATUSES.has(view.status)) stopFollow(chat, runId);
    };

    /** Follows every turn still going (and the one just sent) until its run has ended. */
    const syncFollows = (chat: OpenChat) => {
      if (!isCurrent(chat)) return;
      const { record, pendingTurn, turnViews } = get();
      const going = (record?.turns ?? [])
        .filter((turn) => !TERMINAL_RUN_STATUSES.has(turn.status))
        .map((turn) => turn.runId);
      if (pendingTurn) going.push(pendingTurn.runId);
      for (const runId of going) {
        const view = turnViews[runId];
        if (chat.follows.has(runId) || (view && TERMINAL_RUN_STATUSES.has(view.status))) continue;
        chat.follows.set(
          runId,
          runs.subscribe(runId, view?.lastSeq ?? 0, {
            onEvents: (events) => onTurnEvents(chat, runId, events),
            onStatus: () => undefined,
            onError: (error) => {
              if (isCurrent(chat)) set({ error: { kind: "stream", message: error.message } });
            },
          }),
        );
      }
    };

    const onSessionEvents = (chat: OpenChat, events: readonly SessionEvent[]) => {
      if (!isCurrent(chat)) return;
      const state = get();
      if (state.record === null) return;
      const known = new Set(state.groupReports.map((report) => report.seq));
      const reports: ChatGroupReport[] = [];
      for (const event of events) {
        if (event.type !== "task_group_report" || known.has(event.seq)) continue;
        const { groupId, name, report, mergeStrategy, tasks } = event.data;
        reports.push({ seq: event.seq, ts: event.ts, groupId, name, report, mergeStrategy, tasks });
      }
      const record = applySessionEvents(state.record, events);
      const pending = state.pendingTurn;
      set({
        record,
        groupReports: reports.length > 0 ? [...state.groupReports, ...reports] : state.groupReports,
        pendingTurn: pending && record.turns.some((turn) => turn.runId === pending.runId) ? null : pending,
      });
      syncFollows(chat);
    };

    const refreshSessions = async () => {
      const agentId = get().agentId;
      if (agentId === null) return;
      try {
        const list = await api.listSessions({
          agentId,
          ...(options.sessionsLimit === undefined ? {} : { limit: options.sessionsLimit }),
        });
        if (get().agentId === agentId) set({ sessions: list, sessionsLoaded: true });
      } catch (error) {
        if (get().agentId === agentId)
          set({ sessionsLoaded: true, error: { kind: "sessions", message: getErrorMessage(error) } });
      }
    };

    return {
      ...NO_SESSION,
      agentId: null,
      sessions: [],
      sessionsLoaded: false,
      sending: false,
      error: null,

      async watchAgent(agentId) {
        if (agentId === get().agentId && (agentId === null || unwatch !== null)) return;
        unwatch?.();
        unwatch = null;
        const record = get().record;
        if (record !== null && record.agentId !== agentId) {
          endChat();
          set({ ...NO_SESSION });
        }
        set({ agentId, sessions: [], sessionsLoaded: false, drafting: false });
        if (agentId === null) return;
        unwatch = sessions.watchSessions(agentId, (session) => {
          if (get().agentId === session.agentId) set({ sessions: upsertSession(get().sessions, session) });
        });
        await refreshSessions();
      },

      refreshSessions,

      async openSession(sessionId) {
        if (open !== null && open.sessionId === sessionId) return true;
        endChat();
        const chat: OpenChat = { sessionId, unsubscribe: null, follows: new Map(), loadingTurns: new Set() };
        open = chat;
        set({ ...NO_SESSION, sessionId, loading: true, error: null });
        try {
          const record = await api.getSession(sessionId);
          if (!isCurrent(chat)) return false;
          set({ record, loading: false });
          // the whole log: the fold skips what the record holds; the group reports are kept from it
          chat.unsubscribe = sessions.subscribeSession(sessionId, 0, {
            onEvents: (events) => onSessionEvents(chat, events),
            onError: (error) => {
              if (isCurrent(chat)) set({ error: { kind: "stream", message: error.message } });
            },
          });
          syncFollows(chat);
          void getSpec(record.agentId, record.agentVersion).then(
            (spec) => {
              if (isCurrent(chat)) set({ spec });
            },
            () => undefined,
          );
          return true;
        } catch (error) {
          if (isCurrent(chat))
            set({ loading: false, error: { kind: "load", message: getErrorMessage(error) } });
          return false;
        }
      },

      newChat() {
        endChat();
        set({ ...NO_SESSION, drafting: true, error: null });
      },

      leaveSession() {
        endChat();
        set({ ...NO_SESSION, error: null });
      },

      async send(query, target = { channel: LATEST_CHANNEL }) {
        const text = query.trim();
        const agentId = get().agentId;
        if (text === "" || agentId === null || get().sending) return null;
        set({ sending: true, error: null });
        try {
          let sessionId = get().sessionId;
          if (sessionId === null) {
            // the designer's chat talks to the latest save (unless told), not to what production serves callers
            sessionId = (await api.createSession({ agentId, ...target })).sessionId;
            if (!(await get().openSession(sessionId))) return null;
            void refreshSessions();
          }
          const chat = open;
          const { runId } = await api.startTurn(sessionId, { query: text });
          if (chat !== null && isCurrent(chat)) {
            if (!get().record?.turns.some((turn) => turn.runId === runId))
              set({ pendingTurn: { runId, query: text } });
            syncFollows(chat);
          }
          return runId;
        } catch (error) {
          const reason = getConflictReason(error);
          set({ error: { kind: "send", message: getErrorMessage(error), ...(reason ? { reason } : {}) } });
          return null;
        } finally {
          set({ sending: false });
        }
      },

      async resume(runId, input) {
        const resumeToken = get().turnViews[runId]?.pause?.resumeToken;
        if (resumeToken === undefined) {
          const message = "This turn is not waiting for a decision.";
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
          set({ error: { kind: "already_answered", message, reason: sent.conflict.reason } });
          return { ok: false, kind: "already_answered", message };
        }
        set({ error: { kind: "resume", message } });
        return { ok: false, kind: "resume", message };
      },

      async decideMerge(mergeId, decision, note) {
        const sessionId = get().sessionId;
        if (sessionId === null) return false;
        try {
          await api.decideMerge(sessionId, mergeId, {
            decision,
            ...(note?.trim() ? { note: note.trim() } : {}),
          });
          set({ error: null });
          return true;
        } catch (error) {
          const reason = getConflictReason(error);
          const message =
            reason === "already_answered"
              ? "This merge was already answered (on another page, or by someone else)."
              : getErrorMessage(error);
          set({ error: { kind: "merge", message, ...(reason ? { reason } : {}) } });
          return false;
        }
      },

      async loadTurn(runId) {
        const chat = open;
        if (chat === null || get().turnViews[runId] !== undefined || chat.loadingTurns.has(runId)) return;
        chat.loadingTurns.add(runId);
        try {
          const events = await api.getRunEvents(runId, 0);
          if (!isCurrent(chat) || get().turnViews[runId] !== undefined) return;
          set({ turnViews: { ...get().turnViews, [runId]: applyRunEvents(createRunView(runId), events) } });
        } catch (error) {
          if (isCurrent(chat)) set({ error: { kind: "load", message: getErrorMessage(error) } });
        } finally {
          chat.loadingTurns.delete(runId);
        }
      },

      async closeSession() {
        const sessionId = get().sessionId;
        if (sessionId === null) return;
        try {
          await api.closeSession(sessionId);
          void refreshSessions();
        } catch (error) {
          set({ error: { kind: "close", message: getErrorMessage(error) } });
        }
      },

      clearError() {
        set({ error: null });
      },

      dispose() {
        endChat();
        unwatch?.();
        unwatch = null;
      },
    };
  });
}
