import {
  getPathValue,
  parseJson,
  protoSafeReviver,
  TriggerId,
  type HookResponse,
  type RunRecord,
} from "@waddle/protocol";
import express, { Router, type Response } from "express";
import { z } from "zod";
import type { RateLimits } from "../access/rate-limits.js";
import { parseRequest } from "../http/validate-request.js";
import { isRunSettled } from "../runs/follow-run.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import { ApiError } from "../shared/api-error.js";
import type { TriggerRecord } from "../store/triggers/trigger-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { hookUnauthorized, isHookAuthorized } from "./check-hook-auth.js";
import { fillHookQuery, MAX_FILLED_QUERY_CHARS } from "./fill-hook-query.js";
import type { TriggerFirer } from "./trigger-firer.js";
import { createFireId, getFireRunId } from "./trigger-ids.js";

/** The largest delivery accepted; a larger one is 413. */
export const HOOK_BODY_LIMIT = "1mb";
/** The longest `?wait=S`. */
export const MAX_HOOK_WAIT_S = 60;

const HookQuery = z.strictObject({ wait: z.coerce.number().int().min(0).max(MAX_HOOK_WAIT_S).optional() });
const IdempotencyKey = z.string().min(1).max(200);

type WebhookTrigger = Extract<TriggerRecord, { kind: "webhook" }>;

export interface HookRoutesOptions {
  store: WaddleStore;
  firer: TriggerFirer;
  /** Runs' status changes, for `?wait`. */
  hub: RunEventHub;
  /** Deliveries count against their agent's bucket, as the runs a key starts do. */
  limits?: RateLimits;
}

/**
 * `POST /hooks/:triggerId` (outside `/api`): a webhook trigger's deliveries, authorized by the trigger's
 * secret alone (never an API key or `WADDLE_TOKEN`). The raw body is read here (the signature covers its
 * bytes), then the JSON fills the query and goes into the run's context. 202 `{runId}`, or with `?wait=S`
 * the answer once the run has ended or paused within S seconds.
 */
export function createHookRoutes(options: HookRoutesOptions): Router {
  const { store, firer, hub, limits } = options;
  const router = Router();

  router.post(
    "/:triggerId",
    express.raw({ type: () => true, limit: HOOK_BODY_LIMIT }),
    async (request, response) => {
      const { wait = 0 } = parseRequest(HookQuery, request.query, "query");
      const trigger = await findWebhook(store, request.params["triggerId"]);
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const authorized = isHookAuthorized({
        secretMode: trigger.secretMode,
        secret: trigger.secret ?? "",
        credentials: {
          signature: request.get("waddle-signature"),
          authorization: request.get("authorization"),
          body: raw,
        },
      });
      if (!authorized || !trigger.secret) throw hookUnauthorized();
      await limits?.consumeBucket({
        limit: limits.limit,
        bucket: `agent:${trigger.agentId}`,
        message: `Too many requests for the agent "${trigger.agentId}": its limit is ${limits.limit.text}.`,
        details: { scope: "agent", agentId: trigger.agentId },
      });
      const body = readJson(raw);
      const filled = fillHookQuery(trigger.query, body);
      if (!filled.ok) {
        throw new ApiError(
          "missing_fields",
          `The request's JSON lacks ${filled.missing.join(", ")}, which the trigger's query reads: nothing ran.`,
          { fields: filled.missing },
        );
      }
      if (filled.query.length > MAX_FILLED_QUERY_CHARS) {
        throw new ApiError(
          "payload_too_large",
          `The filled query is over ${MAX_FILLED_QUERY_CHARS} characters.`,
        );
      }
      const key = getIdempotencyKey(trigger, request.get("idempotency-key"), body);
      const fireId = createFireId();
      const runId = getFireRunId(fireId);
      const firedAt = new Date().toISOString();
      if (key !== undefined) {
        const reservation = await store.triggers.reserveKey({
          triggerId: trigger.id,
          key,
          runId,
          at: firedAt,
        });
        if (!reservation.reserved)
          return answer({ response, store, hub, runId: reservation.runId, wait, duplicate: true });
      }
      const outcome = await firer.start(trigger, {
        fireId,
        firedAt,
        query: filled.query,
        contextMeta: { ...trigger.context, trigger: { id: trigger.id, kind: trigger.kind, firedAt }, body },
      });
      if (outcome.error) {
        if (key !== undefined) await store.triggers.releaseKey({ triggerId: trigger.id, key, runId });
        throw outcome.error;
      }
      return answer({ response, store, hub, runId, wait, duplicate: false });
    },
  );

  return router;
}

/** An enabled webhook trigger, or 404 (unknown, malformed, disabled and schedule ids alike). */
async function findWebhook(store: WaddleStore, id: string | undefined): Promise<WebhookTrigger> {
  const parsed = TriggerId.safeParse(id);
  const trigger = parsed.success ? await store.triggers.get(parsed.data) : undefined;
  if (trigger?.kind === "webhook" && trigger.enabled) return trigger;
  throw new ApiError("not_found", `No enabled webhook trigger "${String(id).slice(0, 100)}".`);
}

function readJson(raw: Buffer): unknown {
  const text = raw.toString("utf8");
  if (text.trim() === "") return {};
  const parsed = parseJson(text, { reviver: protoSafeReviver });
  if (parsed.ok) return parsed.value;
  throw new ApiError("invalid_json", `The request body is not valid JSON: ${parsed.error}`);
}

/** `Idempotency-Key`, else the body's field the trigger names (text or a number). */
function getIdempotencyKey(
  trigger: WebhookTrigger,
  header: string | undefined,
  body: unknown,
): string | undefined {
  const field = trigger.idempotencyField;
  const value = header ?? (field === undefined ? undefined : getPathValue(body, field));
  if (value === undefined || value === null) return undefined;
  const key = IdempotencyKey.safeParse(typeof value === "number" ? String(value) : value);
  if (key.success) return key.data;
  throw new ApiError(
    "bad_request",
    `The idempotency key (${header === undefined ? `the body's "${field}"` : "Idempotency-Key"}) must be text of 1 to 200 characters.`,
  );
}

async function answer(options: {
  response: Response;
  store: WaddleStore;
  hub: RunEventHub;
  runId: string;
  wait: number;
  duplicate: boolean;
}): Promise<void> {
  const { response, runId } = options;
  const base: HookResponse = { runId, ...(options.duplicate ? { duplicate: true } : {}) };
  const settled =
    options.wait > 0 ? await waitForSettled({ ...options, timeoutMs: options.wait * 1_000 }) : undefined;
  if (!settled) {
    response.status(202).location(`/api/runs/${runId}`).json(base);
    return;
  }
  const answerText = settled.result?.kind === "finish" ? settled.result.payload.answer : undefined;
  const body: HookResponse = {
    ...base,
    status: settled.status,
    ...(answerText === undefined ? {} : { answer: answerText }),
  };
  response.status(200).json(body);
}

/** The run once it has ended or paused, or undefined when `timeoutMs` passed first. */
function waitForSettled(options: {
  hub: RunEventHub;
  store: WaddleStore;
  runId: string;
  timeoutMs: number;
}): Promise<RunRecord | undefined> {
  const { hub, store, runId } = options;
  return new Promise((resolve) => {
    let done = false;
    const finish = (run: RunRecord | undefined) => {
      if (done) return;
      done = true;
      stop();
      clearTimeout(timer);
      resolve(run);
    };
    const check = () =>
      store.getRun(runId).then(
        (run) => (run && isRunSettled(run) ? finish(run) : undefined),
        () => finish(undefined),
      );
    // Listening first, reading second: a status change between the two is not missed.
    const stop = hub.onStatus((message) => {
      if (message.runId === runId) void check();
    });
    const timer = setTimeout(() => finish(undefined), options.timeoutMs);
    void check();
  });
}
