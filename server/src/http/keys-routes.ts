import { Slug } from "@waddle/protocol";
import { Router } from "express";
import { z } from "zod";
import { ApiError } from "../shared/api-error.js";
import type { StoredApiKey } from "../store/api-keys/api-key-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { parseRequest } from "./validate-request.js";
import { actorOf, ROLES } from "../access/actor.js";
import { audit } from "../access/audit-trail.js";
import { generateApiKey, hashSecret } from "../access/api-key-secret.js";
import { isActive, type Authenticator } from "../access/authenticator.js";
import { ROLE_PERMISSIONS, can } from "../access/permissions.js";

/** `60/min`, `5/s`, `1000/h`: a key's own rate limit (enforced by the rate limiter, not here). */
export const RATE_LIMIT_PATTERN = /^\d+\/(s|min|h)$/;

export const CreateKeyRequest = z.strictObject({
  name: z.string().trim().min(1).max(100),
  role: z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` }),
  agents: z.array(Slug).min(1).max(200).optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  canDecide: z.boolean().optional(),
  /** An editor key that may also release to production (issue 32). */
  canRelease: z.boolean().optional(),
  rateLimit: z.string().regex(RATE_LIMIT_PATTERN, "must look like 60/min, 5/s or 1000/h").optional(),
});

const KeyIdParam = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9]{1,64}$/, "must be a key id") });

/** A key as the API shows it: never its hash. */
export function toKeySummary(key: StoredApiKey) {
  const { hash: _hash, ...summary } = key;
  return summary;
}

/**
 * `GET /api/keys`, `POST /api/keys` (→ 201 `{id, key}`, the only time the key is sent), `DELETE
 * /api/keys/:id` (revokes; the last admin key without WADDLE_TOKEN is a 409), and `GET /api/me`.
 * The access guard has already checked `keys:manage`.
 */
export function createKeysRoutes(options: {
  store: WaddleStore;
  authenticator: Authenticator;
  /** Told of each revoked key: its sockets are cut here and on every other instance. */
  onRevoke: (keyId: string) => void;
  now?: () => number;
}): Router {
  const { store, authenticator } = options;
  const now = options.now ?? Date.now;
  const router = Router();

  router.get("/me", async (_request, response) => {
    const actor = actorOf(response);
    const key = actor.keyId && actor.role === "editor" ? await store.apiKeys.get(actor.keyId) : undefined;
    response.json({
      name: actor.name,
      role: actor.role,
      agents: actor.agents,
      kind: actor.kind,
      canDecide: actor.canDecide,
      /** May release to `production`: an admin, or an editor key created with `canRelease`. */
      canRelease: actor.role === "admin" || key?.canRelease === true,
      permissions: [...ROLE_PERMISSIONS[actor.role]].concat(
        can(actor, "runs:decide") && !ROLE_PERMISSIONS[actor.role].has("runs:decide") ? ["runs:decide"] : [],
      ),
    });
  });

  router.get("/keys", async (_request, response) => {
    response.json({ keys: (await store.apiKeys.list()).map(toKeySummary) });
  });

  router.post("/keys", async (request, response) => {
    const body = parseRequest(CreateKeyRequest, request.body, "body");
    const actor = actorOf(response);
    const at = now();
    if (body.expiresAt !== undefined && Date.parse(body.expiresAt) <= at) {
      throw new ApiError("validation_failed", 'Fix the field "expiresAt": it is in the past.', {
        where: "body",
        field: "expiresAt",
      });
    }
    const agents = body.agents ? [...new Set(body.agents)] : null;
    for (const agentId of agents ?? []) {
      if (!(await store.getAgent(agentId))) {
        throw new ApiError("validation_failed", `Fix the field "agents": there is no agent "${agentId}".`, {
          where: "body",
          field: "agents",
          agentId,
        });
      }
    }
    // A key limited to some agents never makes a key that reaches more.
    if (actor.agents !== null && (agents === null || agents.some((id) => !actor.agents!.includes(id)))) {
      throw new ApiError("forbidden", "A key limited to some agents may only create keys limited to them.", {
        permission: "keys:manage",
      });
    }
    // Without WADDLE_TOKEN, the first key must be an admin: else nobody could manage keys any more.
    if (!authenticator.tokenSet && body.role !== "admin" && !(await hasOtherActiveAdmin(store, null, at))) {
      throw new ApiError(
        "conflict",
        "Create an admin key first: without WADDLE_TOKEN, a server whose keys are not admins would lock everyone out.",
        { reason: "no_admin_key" },
      );
    }
    const created = generateApiKey();
    await store.apiKeys.create({
      id: created.id,
      name: body.name,
      role: body.role,
      agents,
      canDecide: body.canDecide ?? false,
      ...(body.canRelease ? { canRelease: true } : {}),
      rateLimit: body.rateLimit ?? null,
      expiresAt: body.expiresAt === undefined ? null : new Date(body.expiresAt).toISOString(),
      createdAt: new Date(at).toISOString(),
      lastUsedAt: null,
      revokedAt: null,
      hash: await hashSecret(created.secret),
    });
    authenticator.invalidate(created.id);
    await audit(response, {
      action: "key.created",
      target: { type: "key", id: created.id },
      details: {
        name: body.name,
        role: body.role,
        agents,
        canDecide: body.canDecide ?? false,
        ...(body.canRelease ? { canRelease: true } : {}),
        ...(body.expiresAt === undefined ? {} : { expiresAt: body.expiresAt }),
        ...(body.rateLimit === undefined ? {} : { rateLimit: body.rateLimit }),
      },
    });
    response.status(201).json({ id: created.id, key: created.key });
  });

  router.delete("/keys/:id", async (request, response) => {
    const { id } = parseRequest(KeyIdParam, request.params, "params");
    const key = await store.apiKeys.get(id);
    if (!key || key.revokedAt !== null) throw new ApiError("not_found", `No active key "${id}".`, { id });
    const at = now();
    if (
      !authenticator.tokenSet &&
      key.role === "admin" &&
      isActive(key, at) &&
      !(await hasOtherActiveAdmin(store, id, at))
    ) {
      throw new ApiError(
        "conflict",
        "This is the last admin key and WADDLE_TOKEN is not set: create another admin key first, or nobody could sign in as admin.",
        { reason: "last_admin_key" },
      );
    }
    await store.apiKeys.revoke(id, new Date(at).toISOString());
    authenticator.invalidate(id);
    options.onRevoke(id);
    await audit(response, {
      action: "key.revoked",
      target: { type: "key", id },
      details: { name: key.name, role: key.role },
    });
    response.status(204).end();
  });

  return router;
}

async function hasOtherActiveAdmin(store: WaddleStore, except: string | null, at: number): Promise<boolean> {
  return (await store.apiKeys.list()).some(
    (key) => key.id !== except && key.role === "admin" && isActive(key, at),
  );
}
