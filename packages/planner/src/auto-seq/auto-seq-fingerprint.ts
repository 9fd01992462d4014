import { createHash } from "node:crypto";

/** Privacy-safe description of a payload's shape: never its values (docs/auto-seq.md). */
export interface AutoSeqFingerprint {
  /** sha256 of the type name and the sorted key set, first 16 hex digits. */
  payload_fingerprint: string;
  /** The producing tool's output type name when known (its out-schema `title`), else the JS kind. */
  payload_type: string;
  payload_keys_count: number;
}

/** The top-level own keys of a plain object, sorted: its shape. */
export function getPayloadKeys(payload: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(payload).sort();
}

/**
 * Fingerprints a payload by type name and sorted key set, hashed so that key names (which may carry user
 * data in map-like objects) never appear in events either. Non-objects fingerprint by kind alone.
 */
export function getPayloadFingerprint(payload: unknown, typeName?: string): AutoSeqFingerprint {
  const keys = isPlainObject(payload) ? getPayloadKeys(payload) : [];
  const payloadType = isPlainObject(payload) ? (typeName ?? "object") : getKindName(payload);
  return getShapeFingerprint(payloadType, keys);
}

/** The fingerprint of a failed step: its error says nothing about the shape of a payload. */
export function getFailureFingerprint(): AutoSeqFingerprint {
  return getShapeFingerprint("failure", []);
}

function getShapeFingerprint(payloadType: string, keys: readonly string[]): AutoSeqFingerprint {
  const digest = createHash("sha256")
    .update(JSON.stringify([payloadType, keys]))
    .digest("hex");
  return {
    payload_fingerprint: digest.slice(0, 16),
    payload_type: payloadType,
    payload_keys_count: keys.length,
  };
}

/** True for `{…}` literals and `Object.create(null)` objects: what a structured observation is. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function getKindName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return (value as object).constructor?.name ?? "object";
  return typeof value;
}
