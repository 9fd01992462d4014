import { LATEST_CHANNEL, PRODUCTION_CHANNEL } from "@waddle/protocol";
import { ApiError, notFound } from "../shared/api-error.js";
import type { WaddleStore } from "../store/waddle-store.js";

/**
 * How old a channel may be when a request resolves it: PostgreSQL instances keep what they read this long
 * (`ChannelCache`), so a release on one instance is served by every other within it (issue 32: a second).
 * The instance that released serves it at once; SQLite and memory read their channels on every request.
 */
export const SERVING_CHANNEL_MAX_AGE_MS = 500;
const SERVING = { maxAgeMs: SERVING_CHANNEL_MAX_AGE_MS };

/** What a caller asked to run: a channel (`latest`: the latest save), a version, or neither. */
export interface RunTargetRequest {
  channel?: string | undefined;
  version?: number | undefined;
}

/** The version to run (undefined: the latest save) and the channel it came from, if any. */
export interface ResolvedRunTarget {
  version?: number;
  channel?: string;
}

/**
 * The one resolver of every serving surface (REST runs and sessions, `/v1`, `/mcp`, A2A): a version asked
 * for runs as is; a channel runs what it points at (404 naming it when the agent has no such channel);
 * neither runs what `production` points at, or the latest save while the agent has no production channel.
 */
export async function resolveRunTarget(
  store: WaddleStore,
  agentId: string,
  request: RunTargetRequest = {},
): Promise<ResolvedRunTarget> {
  if (request.version !== undefined) {
    if (request.channel !== undefined && request.channel !== LATEST_CHANNEL) {
      throw new ApiError("bad_request", "Give a channel or an agentVersion, not both.", {
        channel: request.channel,
        version: request.version,
      });
    }
    return { version: request.version };
  }
  if (request.channel === LATEST_CHANNEL) return {};
  if (request.channel === undefined) {
    const production = await store.releases.getChannel(agentId, PRODUCTION_CHANNEL, SERVING);
    return production ? { version: production.version, channel: PRODUCTION_CHANNEL } : {};
  }
  const channel = await store.releases.getChannel(agentId, request.channel, SERVING);
  if (channel) return { version: channel.version, channel: channel.name };
  if (!(await store.getAgent(agentId))) throw notFound("Agent", agentId);
  throw new ApiError(
    "not_found",
    `Agent "${agentId}" has no channel "${request.channel}": release a version to it first, or name another.`,
    { agentId, channel: request.channel },
  );
}
