import type { RunRecord } from "@waddle/protocol";
import { getContextSecrets, type SecretRedactor } from "../secrets/secret-redactor.js";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { RunEventHub } from "./run-event-hub.js";
import type { RunObserver } from "./run-observer.js";
import { RunRecorder, type RecorderClaim } from "./run-recorder.js";

/** What every recorder of a process writes to and publishes on. */
export interface RecorderParts {
  store: WaddleStore;
  hub: RunEventHub;
  redactor: SecretRedactor;
  logger: Logger;
  /** Sees every event recorded in this process (traces, metrics). */
  observer?: RunObserver;
}

/**
 * A recorder that goes on after what `run` has stored; it redacts the toolContext's secrets too, and writes
 * under `claim` when given (fenced). `checkpoints`: the planner's checkpoints are stored (queue mode).
 */
export function createRunRecorder(
  parts: RecorderParts,
  options: {
    run: RunRecord;
    toolContext?: Readonly<Record<string, unknown>> | undefined;
    claim?: RecorderClaim;
    checkpoints?: boolean;
  },
): RunRecorder {
  const { run, toolContext } = options;
  const { redactor } = parts;
  return new RunRecorder({
    runId: run.id,
    lastSeq: run.lastSeq ?? 0,
    usage: run.usage,
    ...(run.decisions ? { decisions: run.decisions } : {}),
    status: run.status,
    store: parts.store,
    hub: parts.hub,
    redactor:
      toolContext && Object.keys(toolContext).length > 0
        ? redactor.with(getContextSecrets(toolContext))
        : redactor,
    logger: parts.logger,
    ...(options.claim ? { claim: options.claim } : {}),
    ...(options.checkpoints ? { checkpoints: true } : {}),
    ...(parts.observer ? { observer: { observer: parts.observer, run } } : {}),
  });
}
