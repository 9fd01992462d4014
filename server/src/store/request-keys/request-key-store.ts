/**
 * What a request that may come again (a client's retry) started: the run that a retry answers from,
 * instead of running the agent again. Keyed by a scope (the endpoint and the caller) and a key (an
 * `Idempotency-Key`, or the request's fingerprint when a client says it is retrying).
 */
export interface RequestKeyRecord {
  scope: string;
  key: string;
  /** A hash of the request: the same key with another body is refused, never answered from this run. */
  fingerprint: string;
  /** Unset while the request that holds the key has not started its run yet. */
  runId?: string;
  createdAt: number;
  expiresAt: number;
}

export type RequestKeyReservation = { reserved: true } | { reserved: false; record: RequestKeyRecord };

/** Keys of requests that started runs; SQLite, PostgreSQL and in-memory, under one conformance suite. */
export interface RequestKeyStore {
  /**
   * Takes the key for a new request, or tells what holds it. One of concurrent reservations wins; a holder
   * past its expiry is replaced (and expired keys are forgotten).
   */
  reserve(options: {
    scope: string;
    key: string;
    fingerprint: string;
    ttlMs: number;
    now?: number;
  }): Promise<RequestKeyReservation>;
  /** Names the run that the request holding the key started. */
  setRun(options: { scope: string; key: string; runId: string }): Promise<void>;
  get(options: { scope: string; key: string }): Promise<RequestKeyRecord | undefined>;
  /** Frees a key, e.g. for a request refused before it started anything. */
  release(options: { scope: string; key: string }): Promise<void>;
}
