import {
  TERMINAL_RUN_STATUSES,
  TERMINAL_TASK_STATUSES,
  type PublicStreamEvent,
  type PublicTurn,
  type RunRecord,
  type SessionRecord,
  type ShowSteps,
} from "@waddle/protocol";
import { RunEventFollower } from "../runs/run-event-follower.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { SessionService } from "../sessions/session-service.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { getMergeWaitingMessage } from "./get-waiting-message.js";
import { PublicTurnMapper } from "./public-turn-mapper.js";

export interface StreamPublicTurnOptions {
  store: WaddleStore;
  hub: RunEventHub;
  sessions: SessionService;
  sessionId: string;
  turn: { runId: string; turn: number };
  showSteps: ShowSteps;
  send: (event: PublicStreamEvent) => void;
  /** The visitor went away: stop following (the run goes on; `GET …/stream` follows it again). */
  signal: AbortSignal;
  /** How often results held for a person are read again (a decision made on another instance). */
  pollMs?: number;
}

/** The status a visitor sees for a run's. */
export function getPublicStatus(status: RunRecord["status"]): PublicTurn["status"] {
  if (status === "paused") return "waiting";
  if (status === "finished") return "finished";
  return TERMINAL_RUN_STATUSES.has(status) ? "failed" : "running";
}

/**
 * Streams one turn to its visitor (issue 33): `turn_started`, then every event of its run from the first,
 * mapped by `PublicTurnMapper` — through its pauses (`waiting`, then `resumed` when a person decides in the
 * designer, on any instance) — to its end; then, while results of the turn's background tasks wait for a
 * person (a HUMAN_GATED merge), `waiting` again until decided; then `done`. Ends early, quietly, when
 * `signal` aborts.
 */
export async function streamPublicTurn(options: StreamPublicTurnOptions): Promise<void> {
  options.send({ type: "turn_started", runId: options.turn.runId, turn: options.turn.turn });
  const run = await followTurnRun(options);
  if (!run || !(await waitForMerges(options))) return;
  options.send({ type: "done", status: getPublicStatus(run.status) });
}

/** Resolves `wake` on every change, until `stop`. */
function createWaker(signal: AbortSignal) {
  let wake = () => undefined as void;
  const onAbort = () => wake();
  signal.addEventListener("abort", onAbort);
  return {
    next: () => new Promise<void>((resolve) => (wake = resolve)),
    wake: () => wake(),
    stop: () => signal.removeEventListener("abort", onAbort),
  };
}

/** The run's events until it ends (a pause is no end here); undefined when the visitor went away. */
async function followTurnRun(options: StreamPublicTurnOptions): Promise<RunRecord | undefined> {
  const { hub, store, signal } = options;
  const { runId } = options.turn;
  const mapper = new PublicTurnMapper(options.showSteps);
  const follower = new RunEventFollower({
    hub,
    store,
    runId,
    afterSeq: 0,
    inOrder: true,
    onEvent: (event) => {
      if (!signal.aborted) for (const out of mapper.onEvent(event)) options.send(out);
    },
  });
  const waker = createWaker(signal);
  const stopStatus = hub.onStatus((message) => {
    if (message.runId === runId) waker.wake();
  });
  try {
    for (;;) {
      const changed = waker.next();
      await follower.catchUp(() => signal.aborted);
      if (signal.aborted) return undefined;
      const run = await store.getRun(runId);
      if (!run) throw new Error(`Run "${runId}" no longer exists.`);
      if (TERMINAL_RUN_STATUSES.has(run.status)) {
        if ((run.lastSeq ?? 0) > follower.lastSeq) await follower.catchUp();
        return run;
      }
      await changed;
    }
  } finally {
    follower.stop();
    stopStatus();
    waker.stop();
  }
}

/** The turn's background results held for a person, if any, and whether a HUMAN_GATED task of it still goes. */
export function getHeld(record: SessionRecord, turn: number) {
  const ofTurn = (taskId: string) => record.tasks.find((task) => task.taskId === taskId)?.turn === turn;
  const pending = record.pendingMerges.find((merge) => merge.tasks.some((task) => ofTurn(task.taskId)));
  const going = record.tasks.some(
    (task) =>
      task.turn === turn && task.mergeStrategy === "HUMAN_GATED" && !TERMINAL_TASK_STATUSES.has(task.status),
  );
  return { pending, going };
}

/** Waits while the turn's background results are held for a person; false when the visitor went away. */
async function waitForMerges(options: StreamPublicTurnOptions): Promise<boolean> {
  const { store, sessions, sessionId, signal } = options;
  const waker = createWaker(signal);
  const stopChanges = sessions.onChange((notice) => {
    if (notice.sessionId === sessionId) waker.wake();
  });
  const timer = setInterval(() => waker.wake(), options.pollMs ?? 1_000);
  timer.unref();
  let announced: string | undefined;
  try {
    for (;;) {
      const changed = waker.next();
      const record = await store.sessions.get(sessionId);
      if (signal.aborted) return false;
      const { pending, going } = record ? getHeld(record, options.turn.turn) : { going: false };
      if (announced !== undefined && announced !== pending?.mergeId) {
        options.send({ type: "resumed" });
        announced = undefined;
      }
      if (pending && announced === undefined) {
        options.send({ type: "waiting", message: getMergeWaitingMessage(pending.name) });
        announced = pending.mergeId;
      }
      if (!pending && !going) return true;
      await changed;
    }
  } finally {
    clearInterval(timer);
    stopChanges();
    waker.stop();
  }
}
