import { createHash, randomBytes } from "node:crypto";

/** A new trigger id: `trg_` and 16 random hex characters. */
export function createTriggerId(): string {
  return `trg_${randomBytes(8).toString("hex")}`;
}

/** A webhook trigger's secret: `whk_` and 43 base64url characters (256 random bits). */
export function createTriggerSecret(): string {
  return `whk_${randomBytes(32).toString("base64url")}`;
}

const digest = (text: string, length: number) =>
  createHash("sha256").update(text, "utf8").digest("hex").slice(0, length);

/**
 * A schedule tick's fire id, the same on every instance: whoever fires the tick (its claimer, or another
 * that took a dead claimer's tick) writes the same fire.
 */
export function getTickFireId(triggerId: string, tick: string): string {
  return `tfr_${digest(`${triggerId}@${tick}`, 20)}`;
}

/** A webhook delivery's fire id. */
export function createFireId(): string {
  return `tfr_${randomBytes(10).toString("hex")}`;
}

/**
 * The run a fire starts, named by the fire: a second attempt to start it (another instance, or a
 * waiting fire drained twice) is refused by the store as a duplicate, so one fire is one run.
 */
export function getFireRunId(fireId: string): string {
  return `run_${digest(`fire:${fireId}`, 16)}`;
}
