import {
  ChannelName,
  CreateReleaseRequest,
  PRODUCTION_CHANNEL,
  ReleasesQuery,
  RollbackRequest,
  getAgentSpecDiff,
  isEmptyAgentSpecDiff,
  type AgentDiffResponse,
  type ChannelsResponse,
  type ReleasesResponse,
} from "@waddle/protocol";
import { Router, type Response } from "express";
import { z } from "zod";
import { actorOf } from "../access/actor.js";
import { audit } from "../access/audit-trail.js";
import { type ReleaseService, toChannel, toRelease } from "../releases/release-service.js";
import { resolveRunTarget } from "../releases/resolve-run-target.js";
import { ApiError, notFound } from "../shared/api-error.js";
import type { StoredRelease } from "../store/releases/release-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { AgentIdParam, parseRequest } from "./validate-request.js";

const ChannelParams = z.strictObject({ id: AgentIdParam.shape.id, channel: ChannelName });
/** `from` and `to`: a version number or a channel name. */
const DiffSide = z.union([z.coerce.number().int().positive(), ChannelName]);
const DiffQuery = z.strictObject({ from: DiffSide, to: DiffSide });

/**
 * Releases (issue 32): `/api/agents/:id/channels`, `/releases`, `/channels/:channel/rollback` and `/diff`.
 * Releasing to `production` needs an admin, or an editor key with `canRelease`; an override needs an admin.
 */
export function createReleasesRoutes(options: { store: WaddleStore; releases: ReleaseService }): Router {
  const { store, releases } = options;
  const router = Router();

  const requireAgent = async (id: string) => {
    if (!(await store.getAgent(id))) throw notFound("Agent", id);
  };

  router.get("/agents/:id/channels", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    await requireAgent(id);
    const body: ChannelsResponse = { channels: (await store.releases.listChannels(id)).map(toChannel) };
    response.json(body);
  });

  router.get("/agents/:id/releases", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const query = parseRequest(ReleasesQuery, request.query, "query");
    await requireAgent(id);
    const list = await store.releases.list(id, query.channel ? { channel: query.channel } : {});
    const body: ReleasesResponse = { releases: list.map(toRelease) };
    response.json(body);
  });

  router.post("/agents/:id/releases", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const body = parseRequest(CreateReleaseRequest, request.body, "body");
    await checkMayRelease({ response, store, channel: body.channel, override: body.override !== undefined });
    const release = await releases.release({
      agentId: id,
      channel: body.channel,
      version: body.version,
      notes: body.notes,
      expectedVersion: body.expectedVersion,
      overrideReason: body.override?.reason,
      shadowReportId: body.shadowReportId,
      releasedBy: actorOf(response).name,
    });
    await auditRelease(response, release);
    response.status(201).json(toRelease(release));
  });

  router.post("/agents/:id/channels/:channel/rollback", async (request, response) => {
    const { id, channel } = parseRequest(ChannelParams, request.params, "params");
    const body = parseRequest(RollbackRequest, request.body ?? {}, "body");
    await checkMayRelease({ response, store, channel, override: body.override !== undefined });
    const release = await releases.rollback({
      agentId: id,
      channel,
      notes: body.notes,
      overrideReason: body.override?.reason,
      releasedBy: actorOf(response).name,
    });
    await auditRelease(response, release);
    response.status(201).json(toRelease(release));
  });

  router.get("/agents/:id/diff", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const query = parseRequest(DiffQuery, request.query, "query");
    await requireAgent(id);
    const [from, to] = await Promise.all([query.from, query.to].map((side) => getSide(store, id, side)));
    const diff = getAgentSpecDiff(from!.spec, to!.spec);
    const body: AgentDiffResponse = {
      agentId: id,
      from: from!.target,
      to: to!.target,
      diff,
      same: isEmptyAgentSpecDiff(diff),
    };
    response.json(body);
  });

  return router;
}

async function getSide(store: WaddleStore, agentId: string, side: number | string) {
  const resolved = await resolveRunTarget(
    store,
    agentId,
    typeof side === "number" ? { version: side } : { channel: side },
  );
  const record =
    resolved.version === undefined
      ? await store.getAgent(agentId)
      : await store.getAgentVersion(agentId, resolved.version);
  if (!record)
    throw new ApiError("not_found", `Agent "${agentId}" has no version ${String(side)}.`, { side });
  return {
    spec: record.spec,
    target: { version: record.version, ...(resolved.channel ? { channel: resolved.channel } : {}) },
  };
}

/**
 * `production` needs an admin or an editor key with `canRelease` (read from the key, so that a flag
 * changed by a new key needs no restart); an override of failing tests needs an admin.
 */
async function checkMayRelease(options: {
  response: Response;
  store: WaddleStore;
  channel: string;
  override: boolean;
}): Promise<void> {
  const actor = actorOf(options.response);
  if (options.override && actor.role !== "admin") {
    throw new ApiError("forbidden", "Only an admin may release despite failing tests (override).", {
      permission: "releases:override",
    });
  }
  if (options.channel !== PRODUCTION_CHANNEL || actor.role === "admin") return;
  const key = actor.keyId ? await options.store.apiKeys.get(actor.keyId) : undefined;
  if (actor.role === "editor" && key?.canRelease === true) return;
  throw new ApiError(
    "forbidden",
    "Releasing to production needs an admin, or an editor key created with canRelease: true.",
    { permission: "releases:production", channel: options.channel },
  );
}

async function auditRelease(response: Response, release: StoredRelease): Promise<void> {
  const target = { type: "agent", id: release.agentId };
  const details = {
    releaseId: release.id,
    channel: release.channel,
    version: release.version,
    previousVersion: release.previousVersion,
    testRunId: release.testRunId,
    ...(release.notes ? { notes: release.notes } : {}),
    ...(release.shadowReportId ? { shadowReportId: release.shadowReportId } : {}),
  };
  const action = release.kind === "rollback" ? "release.rolled_back" : "release.created";
  await audit(response, { action, target, details });
  if (release.overrideReason !== null) {
    await audit(response, {
      action: "release.overridden",
      target,
      details: { ...details, reason: release.overrideReason },
    });
  }
}
