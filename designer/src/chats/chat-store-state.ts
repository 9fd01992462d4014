import type { AgentSpec, SessionRecord, SessionSummary } from "@waddle/protocol";
import type { StoreApi } from "zustand/vanilla";
import type { AgentsApi } from "../api/agents-api.js";
import type { RunsApi } from "../api/runs-api.js";
import type { SessionsApi } from "../api/sessions-api.js";
import type { RunView } from "../runs/fold/run-view.js";
import type { ResumeInput, ResumeResult } from "../runs/run-store-state.js";
import type { RunTransport } from "../runs/transport/run-transport.js";
import type { ChatGroupReport, PendingTurn } from "./chat-types.js";
import type { SessionTransport } from "./transport/session-transport.js";

export type ChatErrorKind =
  "sessions" | "load" | "send" | "resume" | "already_answered" | "merge" | "stream" | "close";

export interface ChatError {
  kind: ChatErrorKind;
  message: string;
  /** The server's `details.reason` of a 409: `turn_in_progress`, `session_closed`, `already_answered`. */
  reason?: string;
}

export interface ChatStoreState {
  /** The agent whose sessions `sessions` lists, live. */
  agentId: string | null;
  sessions: SessionSummary[];
  sessionsLoaded: boolean;
  /** The open session (null: the list, or a new chat not sent yet). */
  sessionId: string | null;
  /** The open session folded from its log with `applySessionEvent`. */
  record: SessionRecord | null;
  /** The group reports heard in its log. */
  groupReports: ChatGroupReport[];
  /** Turns' runs folded here (the one still going, and those whose thinking was asked for). */
  turnViews: Readonly<Record<string, RunView>>;
  /** A turn sent from here whose `turn_started` has not arrived. */
  pendingTurn: PendingTurn | null;
  /** The spec of the session's version (the pause form reads its tools' args schemas). */
  spec: AgentSpec | null;
  /** `true` after New chat: the thread is empty and the next Send opens a session. */
  drafting: boolean;
  loading: boolean;
  sending: boolean;
  error: ChatError | null;
  /** Lists the agent's sessions and keeps the list live; leaves an open session of another agent. */
  watchAgent(agentId: string | null): Promise<void>;
  refreshSessions(): Promise<void>;
  /** Opens a session: its record, then its log live from the start (group reports included). */
  openSession(sessionId: string): Promise<boolean>;
  /** An empty thread: the next Send opens a new session with the agent. */
  newChat(): void;
  /** Back to the list. */
  leaveSession(): void;
  /**
   * Sends the next turn (opening a session first in a new chat, on `target`: the latest save unless a
   * channel or version is named); resolves its run id, null when refused.
   */
  send(query: string, target?: { channel: string } | { agentVersion: number }): Promise<string | null>;
  /** Answers the pause of a turn; a pause answered first elsewhere is `already_answered`. */
  resume(runId: string, input: ResumeInput): Promise<ResumeResult>;
  /** Applies (`approve`) or rejects a pending merge, with a note. */
  decideMerge(mergeId: string, decision: "approve" | "reject", note?: string): Promise<boolean>;
  /** Folds an ended turn's stored events (its thinking). */
  loadTurn(runId: string): Promise<void>;
  /** Closes the open session (its tasks are cancelled; its runs are kept). */
  closeSession(): Promise<void>;
  clearError(): void;
  dispose(): void;
}

export type ChatStore = StoreApi<ChatStoreState>;

export interface ChatStoreOptions {
  api: Pick<
    SessionsApi,
    "listSessions" | "getSession" | "createSession" | "closeSession" | "startTurn" | "decideMerge"
  > &
    Pick<RunsApi, "resumeRun" | "getRunEvents"> &
    Pick<AgentsApi, "getVersion">;
  /** Follows the turns' runs (the same transport as the run store's). */
  runs: RunTransport;
  sessions: SessionTransport;
  /** Sessions the list loads. */
  sessionsLimit?: number;
}
