import { randomBytes } from "node:crypto";
import { PlannerError } from "../errors/planner-error.js";

/** Bytes of randomness in a resume token: 192 bits, comfortably over the 128 a guess must face. */
export const RESUME_TOKEN_BYTES = 24;
const MIN_TOKEN_BYTES = 16;

/**
 * A fresh resume token: unguessable and URL-safe (base64url, 32 characters). Pass `random` to make tests
 * deterministic; it must return at least 16 random bytes.
 */
export function createResumeToken(random: (size: number) => Uint8Array = randomBytes): string {
  const bytes = random(RESUME_TOKEN_BYTES);
  if (bytes.length < MIN_TOKEN_BYTES) {
    throw new PlannerError(
      "invalid_options",
      `createResumeToken needs at least ${MIN_TOKEN_BYTES} random bytes but got ${bytes.length}: ` +
        "pass a source that returns the requested size.",
    );
  }
  return Buffer.from(bytes).toString("base64url");
}
