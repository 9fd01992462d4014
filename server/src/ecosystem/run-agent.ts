import type { RunEvent, RunRecord } from "@waddle/protocol";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { RunCommands } from "../runs/run-service.js";
import type { SessionTurns } from "../sessions/session-turns.js";
import type { McpSideEffectsSource } from "../mcp-client/mcp-client-manager.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { followRun } from "../runs/follow-run.js";
import type { AuditTrail } from "../access/audit-trail.js";
import { currentResponse } from "../access/request-context.js";
import type { ResolvedRunTarget } from "../releases/resolve-run-target.js";

/** What the MCP and OpenAI-compatible endpoints need to run a saved agent as any other run. */
export interface AgentRunner {
  runs: RunCommands;
  /** Sessions' turns, for requests that name a session. */
  turns?: SessionTurns;
  hub: RunEventHub;
  store: WaddleStore;
  /** The MCP servers' annotated side effects, so that a failed run's retry status counts them. */
  mcp?: McpSideEffectsSource;
  /** Records each run started here (`run.started`, by the request's actor). */
  audit?: AuditTrail;
}

export interface RunAgentOptions {
  agentId: string;
  query: string;
  /** The planner's `contextMeta`: what the LLM sees beside the query (earlier chat messages). */
  contextMeta?: Record<string, unknown>;
  /** The run's answer schema (`response_format`): its answer is an object valid against it. */
  answerSchema?: Record<string, unknown>;
  /** Run as the next turn of this session: its context is the session's, not `contextMeta`. */
  sessionId?: string;
  /** A public chat's visitor asks (AG-UI with its publishable key): the turn's run records the chat. */
  publicId?: string;
  /** The version to run and the channel it came from (`resolveAgentName`); a session runs its own. */
  target?: ResolvedRunTarget;
  /** Aborting cancels the run (a client that went away or cancelled its call), unless `keepOnAbort`. */
  signal?: AbortSignal;
  /** The run goes on when the signal aborts: a client that sent an `Idempotency-Key` will ask again. */
  keepOnAbort?: boolean;
  /** Called once the run is queued (awaited), before any event. */
  onStarted?: (runId: string) => void | Promise<void>;
  onEvent?: (event: RunEvent) => void;
}

/**
 * Starts a run of the agent's `target` version (the latest without one) through the run service (so it is stored, queued, shown on
 * the canvas and listed like any other) and follows it until it ends or pauses. Throws what `startRun`
 * throws (unknown agent, refused LLM endpoint) before anything runs. A signal that aborts cancels the run;
 * the record then says `cancelled` once the cancel is recorded.
 */
export async function runAgent(runner: AgentRunner, options: RunAgentOptions): Promise<RunRecord> {
  options.signal?.throwIfAborted();
  const { runId } = options.sessionId
    ? await requireTurns(runner).start(
        { sessionId: options.sessionId, agentId: options.agentId, query: options.query },
        {
          ...(options.publicId === undefined ? {} : { publicId: options.publicId }),
          ...(options.answerSchema ? { answerSchema: options.answerSchema } : {}),
        },
      )
    : await runner.runs.startRun(
        {
          agentId: options.agentId,
          query: options.query,
          ...(options.target?.version === undefined ? {} : { agentVersion: options.target.version }),
        },
        {
          ...(options.contextMeta ? { contextMeta: options.contextMeta } : {}),
          ...(options.answerSchema ? { answerSchema: options.answerSchema } : {}),
          ...(options.target?.channel ? { origin: { channel: options.target.channel } } : {}),
        },
      );
  await runner.audit?.recordCurrent({
    action: "run.started",
    target: { type: "run", id: runId },
    details: {
      agentId: options.agentId,
      via: getSurface(),
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    },
  });
  await options.onStarted?.(runId);
  return followAgentRun(runner, runId, options);
}

/**
 * Follows a run that has started, from its first event, until it ends or pauses; a signal that aborts
 * cancels it unless `keepOnAbort`.
 */
export async function followAgentRun(
  runner: AgentRunner,
  runId: string,
  options: Pick<RunAgentOptions, "signal" | "keepOnAbort" | "onEvent">,
): Promise<RunRecord> {
  const cancel = () => {
    // A run that has just ended cannot be cancelled any more: nothing to do then.
    runner.runs.cancelRun(runId).catch(() => undefined);
  };
  const watched = options.keepOnAbort ? undefined : options.signal;
  if (watched?.aborted) cancel();
  watched?.addEventListener("abort", cancel, { once: true });
  try {
    return await followRun({
      hub: runner.hub,
      store: runner.store,
      runId,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
  } finally {
    watched?.removeEventListener("abort", cancel);
  }
}

function requireTurns(runner: AgentRunner): SessionTurns {
  if (!runner.turns) throw new Error("This server runs no sessions.");
  return runner.turns;
}

/** Which endpoint the request that starts a run came to: `/v1`, `/mcp` (the first path segment). */
function getSurface(): string {
  const url = currentResponse()?.req?.originalUrl ?? "";
  return /^\/[a-z0-9]+/i.exec(url)?.[0] ?? "server";
}
