import { StoreError } from "./waddle-store.js";

/** The refusal of a write made under a claim that another claim has since taken over. */
export function fencedError(runId: string, epoch: number, current: number): StoreError {
  return new StoreError(
    "fenced",
    `Run "${runId}" was claimed again (epoch ${current}): a write under epoch ${epoch} is refused.`,
    { epoch, currentEpoch: current },
  );
}
