import type { RunRecord } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";
import type { RequestKeyRecord } from "../store/request-keys/request-key-store.js";
import type { RequestKey } from "./request-key.js";
import { followAgentRun, runAgent, type AgentRunner, type RunAgentOptions } from "./run-agent.js";
import { getSideEffectCalls } from "./side-effect-calls.js";

/** How long a request waits for the request holding its key to start its run, before a 409. */
const WAIT_FOR_FIRST_RUN_MS = 10_000;
const POLL_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the agent once per request key: a request whose key an earlier request holds answers from that
 * request's run (every event from the first, then its end) instead of running the agent again, so that a
 * client's retry never repeats a tool's side effects. Without a key, `runAgent`.
 *
 * - `Idempotency-Key`: the same key with another body is 422 `idempotency_key_reused`; a run started
 *   under a key goes on when its client goes away, since the client will ask again (unless the caller
 *   says otherwise with `keepOnAbort: false`, for a signal that only a deliberate cancel aborts).
 * - A client's retry without a key (`x-stainless-retry-count` over 0) answers from the latest attempt
 *   with the same body, unless that attempt was cancelled (its client went away) before any tool with
 *   side effects ran: then nothing is repeated by running anew.
 */
export async function runAgentOnce(
  runner: AgentRunner,
  options: RunAgentOptions,
  requestKey: RequestKey | undefined,
): Promise<RunRecord> {
  if (!requestKey) return runAgent(runner, options);
  const keys = runner.store.requestKeys;
  const id = { scope: requestKey.scope, key: requestKey.key };
  // A first attempt always runs: it replaces what an earlier request with the same body left.
  if (requestKey.kind === "client_retry" && !requestKey.isRetry) await keys.release(id);
  const earlier = await reserveOrFind(runner, requestKey);
  if (earlier) {
    if (await isWorthFollowing(runner, requestKey, earlier)) {
      await options.onStarted?.(earlier.runId);
      // The run is the earlier request's too: only a deliberate cancel (`keepOnAbort: false`) ends it.
      return followAgentRun(runner, earlier.runId, { ...options, keepOnAbort: options.keepOnAbort ?? true });
    }
    await keys.release(id);
    return runAgentOnce(runner, options, { ...requestKey, isRetry: false });
  }
  let started = false;
  try {
    return await runAgent(runner, {
      ...options,
      keepOnAbort: options.keepOnAbort ?? requestKey.kind === "idempotency",
      onStarted: async (runId) => {
        started = true;
        await keys.setRun({ ...id, runId });
        await options.onStarted?.(runId);
      },
    });
  } catch (error) {
    // Refused before it ran (unknown agent, endpoint not allowed): a corrected request may use the key.
    if (!started) await keys.release(id).catch(() => undefined);
    throw error;
  }
}

/** Reserves the key (undefined), or finds the run of the request that holds it, waiting for its start. */
async function reserveOrFind(
  runner: AgentRunner,
  requestKey: RequestKey,
): Promise<(RequestKeyRecord & { runId: string }) | undefined> {
  const keys = runner.store.requestKeys;
  const id = { scope: requestKey.scope, key: requestKey.key };
  const deadline = Date.now() + WAIT_FOR_FIRST_RUN_MS;
  for (;;) {
    const reservation = await keys.reserve({
      ...id,
      fingerprint: requestKey.fingerprint,
      ttlMs: requestKey.ttlMs,
    });
    if (reservation.reserved) return undefined;
    const { record } = reservation;
    if (record.fingerprint !== requestKey.fingerprint) {
      throw new ApiError(
        "idempotency_key_reused",
        "This Idempotency-Key was sent with another request body: use a new key for a new request.",
        { param: "Idempotency-Key" },
      );
    }
    if (record.runId !== undefined) return { ...record, runId: record.runId };
    // The request that holds the key has not started its run yet: wait for it, or for its release.
    for (;;) {
      if (Date.now() >= deadline) {
        throw new ApiError(
          "request_in_progress",
          "A request with this key is still starting its run: send it again in a moment.",
          { param: "Idempotency-Key" },
        );
      }
      await sleep(POLL_MS);
      const held = await keys.get(id);
      if (!held) break; // released: reserve again
      if (held.runId !== undefined) return { ...held, runId: held.runId };
    }
  }
}

/**
 * Whether a request answers from the earlier run: always under an `Idempotency-Key`; for a client's retry,
 * unless the earlier attempt was cancelled before it ran any tool with side effects.
 */
async function isWorthFollowing(
  runner: AgentRunner,
  requestKey: RequestKey,
  earlier: { runId: string },
): Promise<boolean> {
  if (requestKey.kind === "idempotency") return true;
  const run = await runner.store.getRun(earlier.runId);
  if (!run) return false;
  if (run.status !== "cancelled") return true;
  return (await getSideEffectCalls(runner.store, run, runner.mcp)).length > 0;
}
