import { EventType, PROTOCOL_VERSION, type Event as AguiEvent } from "@ag-ui/core";
import { getResumeNote, type PendingPause, type RunRecord, type SessionRecord } from "@waddle/protocol";
import { getWaitingMessage } from "../../public/get-waiting-message.js";
import { followRun } from "../../runs/follow-run.js";
import type { SessionTurns } from "../../sessions/session-turns.js";
import { runAgent, type AgentRunner } from "../run-agent.js";
import { AguiEventMapper, type AguiView } from "./agui-event-mapper.js";
import type { AguiEventStream } from "./agui-event-stream.js";
import { getAguiRunEnd, type AguiRunIds } from "./get-agui-run-end.js";
import type { TodoItem } from "./get-todos-patch.js";
import type { AguiDecision } from "./parse-agui-input.js";

/** What the caller may see and do. */
export interface AguiCaller {
  /** What of the run's work the caller sees besides the answer and todos. */
  view: AguiView;
  /**
   * A pause is not the caller's to answer (a publishable key's visitor): the stream says it waits for a
   * team member (`CUSTOM` `waddle.waiting`) and goes on once someone decides, instead of ending in an
   * interrupt.
   */
  waitsForPeople: boolean;
  /** Named as the decider in the run's events (a key's name); absent for the local user. */
  name?: string;
  /** A publishable key's public chat: its runs record it, as the chat's own turns do. */
  publicId?: string;
}

export interface AguiTurnOptions {
  runner: AgentRunner & { turns: SessionTurns };
  ids: AguiRunIds;
  session: SessionRecord;
  stream: AguiEventStream;
  caller: AguiCaller;
  /** The client's `state`, kept beside `todos` in the snapshot when it is an object. */
  clientState: unknown;
  /** Aborts when the client went away: a running run is cancelled, a paused one left to its deciders. */
  signal: AbortSignal;
}

/** AG-UI's `CUSTOM` events of a run that waits for a person: their names. */
export const WAITING_EVENT = "waddle.waiting";
export const RESUMED_EVENT = "waddle.resumed";

/** A new turn of the thread's session on `query`, streamed from its first event until it ends or pauses. */
export async function runAguiTurn(options: AguiTurnOptions & { query: string }): Promise<void> {
  const { runner, session, stream, signal } = options;
  let mapper: AguiEventMapper | undefined;
  const run = await runAgent(runner, {
    agentId: session.agentId,
    query: options.query,
    sessionId: session.id,
    ...(options.caller.publicId === undefined ? {} : { publicId: options.caller.publicId }),
    signal,
    onStarted: (runId) => {
      mapper = new AguiEventMapper({ waddleRunId: runId, view: options.caller.view });
      begin(options, runId, mapper);
    },
    onEvent: (event) => {
      if (mapper) stream.send(mapper.map(event));
    },
  });
  mapper ??= new AguiEventMapper({ waddleRunId: run.id, view: options.caller.view });
  await finish(options, run, mapper);
}

/**
 * Answers the pause `run` waits at (the run service's resume, as `POST /api/runs/:id/resume`) and streams
 * the run from there on as a new AG-UI run, until it ends or pauses again.
 */
export async function resumeAguiTurn(
  options: AguiTurnOptions & { run: RunRecord & { pause: PendingPause }; decision: AguiDecision },
): Promise<void> {
  const { runner, run, decision } = options;
  const afterSeq = run.lastSeq ?? 0;
  const todos = await getRunTodos(runner, run.id);
  await runner.runs.resumeRun(run.id, {
    resumeToken: run.pause.resumeToken,
    decision: decision.decision,
    ...(decision.args ? { args: decision.args } : {}),
    ...(decision.userInput === undefined ? {} : { userInput: decision.userInput }),
    ...(options.caller.name === undefined ? {} : { actor: options.caller.name }),
  });
  const note = getResumeNote(decision.userInput);
  await runner.audit?.recordCurrent({
    action: "run.decision",
    target: { type: "run", id: run.id },
    details: {
      decision: decision.decision,
      agentId: run.agentId,
      reason: run.pause.reason,
      via: "/agui",
      ...(note === undefined ? {} : { note }),
    },
  });
  const mapper = new AguiEventMapper({ waddleRunId: run.id, view: options.caller.view, todos });
  begin(options, run.id, mapper);
  await finish(options, await follow(options, run.id, afterSeq, mapper), mapper);
}

function begin(options: AguiTurnOptions, waddleRunId: string, mapper: AguiEventMapper): void {
  const { ids, session, stream } = options;
  const clientState = options.clientState;
  const state = typeof clientState === "object" && clientState !== null && !Array.isArray(clientState);
  stream.open({ "x-waddle-run-id": waddleRunId });
  const waddle = {
    runId: waddleRunId,
    sessionId: session.id,
    agentId: session.agentId,
    agentVersion: session.agentVersion,
    ...(session.channel ? { channel: session.channel } : {}),
  };
  stream.send([
    { type: EventType.RUN_STARTED, ...ids, protocolVersion: PROTOCOL_VERSION, metadata: { waddle } },
    {
      type: EventType.STATE_SNAPSHOT,
      snapshot: { ...(state ? (clientState as Record<string, unknown>) : {}), todos: [...mapper.todos] },
    },
  ]);
}

/**
 * Ends the AG-UI run with the Waddle run's outcome. For a caller who cannot answer pauses, each pause is
 * told (`waddle.waiting`, never the tool's arguments) and waited out, and the run followed on once a
 * person decided.
 */
async function finish(options: AguiTurnOptions, settled: RunRecord, mapper: AguiEventMapper): Promise<void> {
  const { stream, signal } = options;
  let run = settled;
  while (options.caller.waitsForPeople && run.status === "paused" && run.pause && !signal.aborted) {
    stream.send([...mapper.close(), getWaitingEvent(run.pause)]);
    const lastSeq = run.lastSeq ?? 0;
    if (!(await waitWhilePaused(options, run.id))) return;
    stream.send([{ type: EventType.CUSTOM, name: RESUMED_EVENT, value: {} }]);
    run = await follow(options, run.id, lastSeq, mapper);
  }
  if (signal.aborted) return; // nobody is listening
  stream.send(getAguiRunEnd({ mapper, run, ids: options.ids }));
  stream.end();
}

/** Follows a run after `afterSeq` until it ends or pauses; a client that goes away cancels it. */
async function follow(
  options: AguiTurnOptions,
  runId: string,
  afterSeq: number,
  mapper: AguiEventMapper,
): Promise<RunRecord> {
  const { runner, signal, stream } = options;
  const cancel = () => void runner.runs.cancelRun(runId).catch(() => undefined);
  signal.addEventListener("abort", cancel, { once: true });
  try {
    return await followRun({
      hub: runner.hub,
      store: runner.store,
      runId,
      afterSeq,
      onEvent: (event) => stream.send(mapper.map(event)),
    });
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

/** Resolves true once the run is no longer paused, false when the client went away first. */
async function waitWhilePaused(options: AguiTurnOptions, runId: string): Promise<boolean> {
  const { runner, signal } = options;
  let wake: () => void = () => undefined;
  const stop = runner.hub.onStatus((message) => {
    if (message.runId === runId) wake();
  });
  const onAbort = () => wake();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const changed = new Promise<void>((resolve) => (wake = resolve));
      if (signal.aborted) return false;
      const run = await runner.store.getRun(runId);
      if (!run || run.status !== "paused") return true;
      await changed;
    }
  } finally {
    stop();
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * What a visitor is told while a person decides: the public chat's own words (`getWaitingMessage`), so the
 * hosted page and an AG-UI frontend say the same, never the tool's arguments.
 */
export function getWaitingEvent(pause: PendingPause): AguiEvent {
  const message = getWaitingMessage(pause);
  return { type: EventType.CUSTOM, name: WAITING_EVENT, value: { reason: pause.reason, message } };
}

/** The run's `write_todos` list as its last `todos_updated` left it (none: empty). */
async function getRunTodos(runner: AgentRunner, runId: string): Promise<TodoItem[]> {
  const events = await runner.store.listEvents(runId);
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]!;
    if (event.type === "todos_updated") return event.data.todos;
  }
  return [];
}
