import {
  TERMINAL_RUN_STATUSES,
  type AgentSpec,
  type NewSessionEvent,
  type RunRecord,
  type SessionRecord,
  type StartTurnRequest,
} from "@waddle/protocol";
import {
  compactConversation,
  getSessionContextMeta,
  getSessionMergedResults,
  sealSessionTurn,
  type ConversationTurn,
  type LlmClient,
  type SessionContext,
} from "@waddle/planner";
import { ApiError } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import { getRunAgent } from "../runs/get-run-agent.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import { createRunId, type RunCommands } from "../runs/run-service.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { sessionConflict, type SessionService } from "./session-service.js";
import { getOpenTodos } from "../runs/get-open-todos.js";

export interface SessionTurnsOptions {
  store: WaddleStore;
  sessions: SessionService;
  runs: RunCommands;
  hub: RunEventHub;
  logger: Logger;
  /** The summarizer for an agent (`summarizerLlm`, else its LLM); undefined: rule-based summaries only. */
  createSummarizer?: (spec: AgentSpec) => LlmClient | undefined | Promise<LlmClient | undefined>;
  /** The session's background tasks, brought up to their runs whenever the session is read. */
  tasks?: { reconcile(record: SessionRecord): Promise<SessionRecord> };
}

export interface StartedTurn {
  runId: string;
  sessionId: string;
  turn: number;
  /** The session's agent, which the turn runs. */
  agentId: string;
}

/** Runs whose origin is known, so that a status message of another run costs no read. */
const ORIGIN_CACHE_LIMIT = 10_000;

/**
 * A session's turns: each a run of the session's agent (its pinned version unless the turn names another),
 * started only while no earlier turn runs or waits at a pause and the session is open — one conditional
 * write, so two instances never start two turns at once. The run's status changes reach the session's log
 * (`turn_updated`, `turn_ended` with the answer), written once whichever instance hears them.
 */
export class SessionTurns {
  /** runId → its session's turn, or null for a run of no session. */
  private readonly origins = new Map<string, { sessionId: string; turn: number } | null>();

  constructor(private readonly options: SessionTurnsOptions) {
    options.hub.onStatus((message) => {
      void this.onRunStatus(message.runId).catch((error: unknown) =>
        options.logger.error("session turn update failed", { runId: message.runId, error: String(error) }),
      );
    });
  }

  /**
   * `publicId`: a public chat's visitor asked (issue 33); the run's origin says which chat. `answerSchema`:
   * the turn's own answer schema (`/v1`'s `text.format`).
   */
  async start(
    request: StartTurnRequest,
    from: { publicId?: string; answerSchema?: Record<string, unknown> } = {},
  ): Promise<StartedTurn> {
    const { store, sessions } = this.options;
    const sessionId = request.sessionId;
    const current = await this.reconcile(sessionId);
    if (request.agentId !== undefined && request.agentId !== current.agentId) {
      throw new ApiError(
        "session_agent_mismatch",
        `Session "${sessionId}" talks to agent "${current.agentId}", not "${request.agentId}": leave agentId ` +
          "out, or start a session of that agent.",
        { sessionId, agentId: current.agentId },
      );
    }
    refuseIfBusy(current);
    const agent = await getRunAgent(store, {
      agentId: current.agentId,
      agentVersion: request.agentVersion ?? current.agentVersion,
    });
    const compacted = await compactConversation({
      context: await this.getContext(current),
      ...(agent.spec.planner.tokenBudget === undefined
        ? {}
        : { tokenBudget: agent.spec.planner.tokenBudget }),
      ...(await this.getSummarizer(agent.spec)),
    });
    const runId = createRunId();
    type Decision = { refusal: ApiError } | { turn: number };
    const change = await sessions.update<Decision>(sessionId, (record) => {
      const refusal = getRefusal(record);
      if (refusal) return { events: [], result: { refusal } };
      const turn = record.turns.length + 1;
      const events: NewSessionEvent[] = [];
      const { compaction } = compacted;
      if (compaction && compaction.throughTurn > record.compactedThroughTurn) {
        events.push({
          type: "context_compacted",
          data: {
            throughTurn: compaction.throughTurn,
            method: compaction.method === "llm" ? "llm" : "rule_based",
            tokensBefore: compaction.tokensBefore,
            tokensAfter: compaction.tokensAfter,
            summary: compacted.context.summary?.state,
          },
        });
      }
      events.push({ type: "turn_started", data: { runId, turn, query: request.query } });
      return { events, result: { turn } };
    });
    if ("refusal" in change.result) throw change.result.refusal;
    const { turn } = change.result;
    this.remember(runId, { sessionId, turn });
    try {
      await this.options.runs.startRun(
        {
          agentId: agent.id,
          agentVersion: agent.version,
          query: request.query,
          ...(request.toolContext ? { toolContext: request.toolContext } : {}),
        },
        {
          runId,
          ...(from.answerSchema ? { answerSchema: from.answerSchema } : {}),
          origin: {
            sessionId,
            turn,
            kind: "run",
            ...getSessionChannel(current, agent.version),
            ...(from.publicId === undefined ? {} : { publicId: from.publicId }),
          },
          contextMeta: getSessionContextMeta(compacted.context),
        },
      );
    } catch (error) {
      // Refused before it ran (an LLM endpoint this server does not allow, a server shutting down).
      await sessions.update(sessionId, () => ({
        events: [{ type: "turn_ended", data: { runId, turn, status: "failed", answer: null } }],
        result: undefined,
      }));
      throw error;
    }
    return { runId, sessionId, turn, agentId: agent.id };
  }

  /**
   * The session with its last turn brought up to its run's status, for a turn whose change was missed (a
   * restart, an instance that went away before writing it).
   */
  async reconcile(sessionId: string): Promise<SessionRecord> {
    const read = await this.options.sessions.get(sessionId);
    const record = this.options.tasks ? await this.options.tasks.reconcile(read) : read;
    const last = record.turns.at(-1);
    if (!last || TERMINAL_RUN_STATUSES.has(last.status)) return record;
    const run = await this.options.store.getRun(last.runId);
    if (!run || run.status === last.status) return record;
    return (await this.applyRun(sessionId, last.turn, run)) ?? record;
  }

  /** Ends the session's running turn with a cancel (closing a session). */
  async cancelRunningTurn(record: SessionRecord): Promise<void> {
    const last = record.turns.at(-1);
    if (!last || TERMINAL_RUN_STATUSES.has(last.status)) return;
    await this.options.runs.cancelRun(last.runId).catch(() => undefined);
  }

  private async onRunStatus(runId: string): Promise<void> {
    let origin = this.origins.get(runId);
    if (origin === undefined) {
      const run = await this.options.store.getRun(runId);
      origin =
        run?.sessionId && run.turn && run.kind !== "task"
          ? { sessionId: run.sessionId, turn: run.turn }
          : null;
      this.remember(runId, origin);
    }
    if (origin === null) return;
    const run = await this.options.store.getRun(runId);
    if (run) await this.applyRun(origin.sessionId, origin.turn, run);
    if (run && TERMINAL_RUN_STATUSES.has(run.status)) this.origins.delete(runId);
  }

  /** Writes the run's status into its turn, once: nothing when the log already says it. */
  private async applyRun(
    sessionId: string,
    turn: number,
    run: RunRecord,
  ): Promise<SessionRecord | undefined> {
    const change = await this.options.sessions.update(sessionId, (record) => {
      const logged = record.turns.find((entry) => entry.runId === run.id);
      if (!logged || logged.status === run.status || TERMINAL_RUN_STATUSES.has(logged.status)) {
        return { events: [], result: undefined };
      }
      // Queued and running are one state for a session (a turn runs): only a pause and its end are news.
      const ended = TERMINAL_RUN_STATUSES.has(run.status);
      if (!ended && (run.status === "paused") === (logged.status === "paused")) {
        return { events: [], result: undefined };
      }
      const event: NewSessionEvent = TERMINAL_RUN_STATUSES.has(run.status)
        ? {
            type: "turn_ended",
            data: {
              runId: run.id,
              turn,
              status: run.status,
              answer: getAnswer(run),
              ...getAnswerData(run),
              usage: run.usage,
            },
          }
        : { type: "turn_updated", data: { runId: run.id, turn, status: run.status } };
      // The turn yields (its answer, or a pause): its open task groups are sealed, and report if done.
      const yields = ended || run.status === "paused";
      return { events: yields ? [event, ...sealSessionTurn(record, turn)] : [event], result: undefined };
    });
    return change.record;
  }

  /** What the turn knows: the earlier turns after the summary, the summary, the todos still open. */
  private async getContext(record: SessionRecord): Promise<SessionContext> {
    const turns: ConversationTurn[] = record.turns
      .filter((turn) => turn.turn > record.compactedThroughTurn)
      .map((turn) => ({ turn: turn.turn, query: turn.query, answer: turn.answer, status: turn.status }));
    const last = record.turns.at(-1);
    return {
      turns,
      ...(record.contextSummary ? { summary: record.contextSummary as SessionContext["summary"] } : {}),
      merged: getSessionMergedResults(record),
      openTodos: last ? await getOpenTodos(this.options.store, last.runId) : [],
    };
  }

  private async getSummarizer(spec: AgentSpec): Promise<{ llm?: LlmClient }> {
    try {
      const llm = await this.options.createSummarizer?.(spec);
      return llm ? { llm } : {};
    } catch (error) {
      // An endpoint this server refuses: the rule-based summary still keeps the context within budget.
      this.options.logger.info("session summarizer unavailable: rule-based only", { error: String(error) });
      return {};
    }
  }

  private remember(runId: string, origin: { sessionId: string; turn: number } | null): void {
    if (this.origins.size >= ORIGIN_CACHE_LIMIT) {
      const oldest = this.origins.keys().next().value;
      if (oldest !== undefined) this.origins.delete(oldest);
    }
    this.origins.set(runId, origin);
  }
}

/** The 409 a session gives a new turn now, if any. */
function getRefusal(record: SessionRecord): ApiError | undefined {
  if (record.status === "closed") {
    return sessionConflict("session_closed", record, `Session "${record.id}" is closed: start a new one.`);
  }
  const last = record.turns.at(-1);
  if (last && !TERMINAL_RUN_STATUSES.has(last.status)) {
    return sessionConflict(
      "turn_in_progress",
      record,
      `Turn ${last.turn} of session "${record.id}" is ${last.status === "paused" ? "waiting at a pause" : "still running"} ` +
        `(run ${last.runId}): send the next message once it has answered${last.status === "paused" ? ", or answer its pause" : ""}.`,
    );
  }
  return undefined;
}

function refuseIfBusy(record: SessionRecord): void {
  const refusal = getRefusal(record);
  if (refusal) throw refusal;
}

function getAnswer(run: RunRecord): string | null {
  return run.status === "finished" && run.result?.kind === "finish" ? run.result.payload.answer : null;
}

/** The answer object of a turn that had an answer schema, as `{data}`; nothing otherwise. */
function getAnswerData(run: RunRecord): { data?: Record<string, unknown> } {
  const data =
    run.status === "finished" && run.result?.kind === "finish" ? run.result.payload.data : undefined;
  return data === undefined ? {} : { data };
}

/** A turn on the session's pinned version carries the channel the session was created on; another, none. */
function getSessionChannel(record: SessionRecord, version: number): { channel?: string } {
  return record.channel !== undefined && version === record.agentVersion ? { channel: record.channel } : {};
}
