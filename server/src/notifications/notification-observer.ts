import type { RunEvent, RunRecord, SessionEvent } from "@waddle/protocol";
import type { RunObserver } from "../runs/run-observer.js";
import type { NotificationData, NotifyFunction } from "./notify.js";

/** What every notification about a run says of it (never its query, args or answer: they may be private). */
export function getRunData(run: RunRecord): NotificationData {
  return {
    agentId: run.agentId,
    agentVersion: run.agentVersion,
    runId: run.id,
    ...(run.sessionId === undefined ? {} : { sessionId: run.sessionId }),
    ...(run.channel === undefined ? {} : { channel: run.channel }),
    ...(run.startedBy === undefined ? {} : { startedBy: run.startedBy }),
  };
}

/**
 * The run events that notify: `pause` (pause.created, until the inbox announces pauses itself),
 * `run_finished` (run.finished, and budget.exceeded when it stopped at its budget) and `run_failed`
 * (run.failed). Seen where the run is recorded, so each event notifies once across instances. Test
 * cases' runs never notify.
 */
export function createNotificationObserver(options: {
  notify: NotifyFunction;
  /** False once the inbox announces pauses (once across instances, with their due times). */
  pauses: () => boolean;
}): RunObserver {
  const { notify } = options;
  return {
    onEvent(event: RunEvent, run) {
      if (run.record.purpose === "test") return;
      const data = getRunData(run.record);
      switch (event.type) {
        case "pause": {
          if (!options.pauses()) return;
          const tool = event.data.payload["tool"];
          notify("pause.created", {
            ...data,
            reason: event.data.reason,
            ...(typeof tool === "string" ? { tool } : {}),
            ...(event.data.dueAt === undefined ? {} : { dueAt: event.data.dueAt }),
          });
          return;
        }
        case "run_finished": {
          const { reason } = event.data;
          notify("run.finished", { ...data, reason });
          if (reason === "budget_exhausted") notify("budget.exceeded", { ...data, reason });
          return;
        }
        case "run_failed":
          notify("run.failed", {
            ...data,
            error: run.redact({ code: event.data.error.code, message: event.data.error.message }),
            ...(event.data.actor === undefined ? {} : { actor: event.data.actor }),
          });
          return;
        default:
          return;
      }
    },
  };
}

/**
 * A change to a session's log, as the session service tells its listeners (`SessionChangeNotice`), read as
 * data so that notifications need not know sessions.
 */
export interface SessionChange {
  sessionId: string;
  agentId: string;
  /** What the change appended. */
  events?: readonly SessionEvent[];
}

/**
 * A session listener that notifies `merge.pending` for each merge a change appended: the instance that
 * appended it hears it, once.
 */
export function createMergeListener(notify: NotifyFunction): (change: SessionChange) => void {
  return (change) => {
    for (const event of change.events ?? []) {
      if (event.type !== "merge_pending") continue;
      notify("merge.pending", {
        agentId: change.agentId,
        sessionId: change.sessionId,
        mergeId: event.data.mergeId,
        ...(typeof event.data.name === "string" ? { name: event.data.name } : {}),
      });
    }
  };
}
