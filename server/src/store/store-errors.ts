import { StoreError } from "./waddle-store.js";

// The refusals every store gives alike, so that a message and its details never drift between stores.

/** The refusal of a write made under a claim that another claim has since taken over. */
export function fencedError(runId: string, epoch: number, current: number): StoreError {
  return new StoreError(
    "fenced",
    `Run "${runId}" was claimed again (epoch ${current}): a write under epoch ${epoch} is refused.`,
    { epoch, currentEpoch: current },
  );
}

export function runNotFoundError(runId: string): StoreError {
  return new StoreError("not_found", `Run "${runId}" does not exist.`);
}

export function runExistsError(runId: string): StoreError {
  return new StoreError("conflict", `Run "${runId}" already exists.`);
}

/** An event whose `seq` is not the one after the run's last: a gap or a replay. */
export function seqGapError(runId: string, seq: number, lastSeq: number): StoreError {
  return new StoreError("seq_gap", `Event seq ${seq} of run "${runId}" does not follow ${lastSeq}.`, {
    lastSeq,
    seq,
  });
}

export function agentNotFoundError(id: string): StoreError {
  return new StoreError("not_found", `Agent "${id}" does not exist.`);
}

export function agentExistsError(id: string, currentVersion: number): StoreError {
  return new StoreError("conflict", `An agent with id "${id}" already exists.`, { currentVersion });
}

/** An update based on a version that is no longer the agent's latest. */
export function staleAgentVersionError(id: string, currentVersion: number, baseVersion: number): StoreError {
  return new StoreError("conflict", `Agent "${id}" is at version ${currentVersion}, not ${baseVersion}.`, {
    currentVersion,
    baseVersion,
  });
}
