import type { AgentSpec, Rating, ResumeDecision, RunRecord, RunStatus } from "@waddle/protocol";
import type { StoreApi } from "zustand/vanilla";
import type { AgentsApi } from "../api/agents-api.js";
import type { RunsApi } from "../api/runs-api.js";
import type { RunComparison } from "./compare/compare-runs.js";
import type { ReplayIndex } from "./replay/replay-index.js";
import type { ScheduleFrame } from "./replay/replay-player.js";
import type { ConnectionState } from "../socket/socket-connection.js";
import type { RunTransport } from "./transport/run-transport.js";
import type { RunView } from "./fold/run-view.js";

export type RunMode = "edit" | "live" | "replay" | "compare";

export interface ReplayState {
  /** Events applied (0..length). */
  position: number;
  length: number;
  playing: boolean;
  speed: number;
  /** The replay's index (whole-run timeline, seq → position, event times), while a replay is open. */
  index?: ReplayIndex;
}

export interface CompareSide {
  runId: string;
  run: RunRecord;
  spec: AgentSpec | null;
  view: RunView;
}

export interface CompareState {
  leftRunId: string;
  rightRunId: string;
  left: CompareSide | null;
  right: CompareSide | null;
  comparison: RunComparison | null;
  loading: boolean;
}

export type RunStoreErrorKind =
  "load" | "start" | "cancel" | "resume" | "already_answered" | "stream" | "runs" | "compare";

export interface RunStoreError {
  kind: RunStoreErrorKind;
  message: string;
}

export type ResumeResult = { ok: true } | { ok: false; kind: "already_answered" | "resume"; message: string };

export interface ResumeInput {
  decision: ResumeDecision;
  /** The new args, for `edit`. */
  args?: Record<string, unknown>;
  /** A note that goes with the decision. */
  userInput?: string;
  toolContext?: Record<string, unknown>;
}

export interface RunStoreState {
  /** `edit`: the document shows; `live`: a run plays as it happens; `replay`: a finished run; `compare`. */
  mode: RunMode;
  runId: string | null;
  /** The open run's record, kept current by status messages and run updates. */
  run: RunRecord | null;
  /** The open run as folded from its events (at the replay position in replay mode). */
  view: RunView | null;
  /** The spec of the version that ran (null until loaded, or when that version is gone). */
  spec: AgentSpec | null;
  /** The run's status: the server's when it knows more than the events so far, else the view's. */
  status: RunStatus | null;
  loading: boolean;
  /** The agent whose runs `runs` lists, live. */
  agentId: string | null;
  runs: RunRecord[];
  runsLoaded: boolean;
  /** Statuses the run list shows (null: all). */
  statusFilter: RunStatus[] | null;
  /** The run list holds test cases' runs too (History's "Show test runs"); off by default. */
  showTestRuns: boolean;
  /** Only runs a public chat visitor rated so (null: any run). */
  ratingFilter: Rating | null;
  /** Only runs this trigger fired (History's trigger filter; null: any run). */
  triggerFilter: string | null;
  replay: ReplayState;
  compare: CompareState | null;
  selectedCallId: string | null;
  connection: ConnectionState;
  error: RunStoreError | null;
  /** Opens a run: live from where it is, or a finished one as a replay at its end. */
  openRun(runId: string): Promise<void>;
  closeRun(): void;
  /**
   * Starts a run of the agent's saved version and opens it; resolves its id (null when refused). Without a
   * version or channel it runs the latest save (`channel: "latest"`), never what production serves.
   */
  startRun(input: {
    agentId: string;
    query: string;
    agentVersion?: number;
    /** A channel to run instead of the latest save. */
    channel?: string;
    toolContext?: Record<string, unknown>;
    /** Run on the offline model, a choice the person made ("Run on the offline model instead"). */
    offline?: boolean;
  }): Promise<string | null>;
  cancelRun(): Promise<void>;
  /** Answers the open run's pause; a pause someone else answered first is `already_answered`. */
  resume(input: ResumeInput): Promise<ResumeResult>;
  /** Lists the agent's runs and keeps the list live (null: none). */
  watchAgent(agentId: string | null): Promise<void>;
  setStatusFilter(statuses: RunStatus[] | null): Promise<void>;
  setShowTestRuns(show: boolean): Promise<void>;
  setRatingFilter(rating: Rating | null): Promise<void>;
  setTriggerFilter(triggerId: string | null): Promise<void>;
  refreshRuns(): Promise<void>;
  seek(position: number): void;
  play(): void;
  pause(): void;
  step(delta: number): void;
  setSpeed(speed: number): void;
  openCompare(leftRunId: string, rightRunId: string): Promise<void>;
  closeCompare(): void;
  selectCall(callId: string | null): void;
  clearError(): void;
  /** Stops every subscription and timer (the transport itself is the caller's). */
  dispose(): void;
}

export type RunStore = StoreApi<RunStoreState>;

export interface RunStoreOptions {
  api: Pick<RunsApi, "getRun" | "getRunEvents" | "startRun" | "cancelRun" | "resumeRun" | "listRuns"> &
    Pick<AgentsApi, "getVersion">;
  transport: RunTransport;
  /** When queued live events are applied (once per frame); requestAnimationFrame by default. */
  scheduleFrame?: ScheduleFrame;
  now?: () => number;
  /** Events between replay checkpoints. */
  replayEvery?: number;
  /** Runs the list loads. */
  runsLimit?: number;
}
