import { ChannelName, LATEST_CHANNEL, Slug, type AgentRecord } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { resolveRunTarget, type ResolvedRunTarget } from "./resolve-run-target.js";

/**
 * How a name carries a channel or version: `@` on `/v1` and A2A (`support-triage@staging`), `.` in MCP tool
 * names, whose allowed characters are letters, digits, `_`, `-` and `.` (agent ids have no dot).
 */
export type AgentNameSeparator = "@" | ".";

/** An agent name split: the agent, and the channel or version after the separator, if any. */
export interface AgentName {
  agentId: string;
  channel?: string;
  version?: number;
}

/** `support-triage@staging` → the agent and channel; `support-triage@7` → the version; undefined: no such name. */
export function parseAgentName(name: string, separator: AgentNameSeparator): AgentName | undefined {
  const at = name.indexOf(separator);
  const agentId = at === -1 ? name : name.slice(0, at);
  if (!Slug.safeParse(agentId).success) return undefined;
  if (at === -1) return { agentId };
  const suffix = name.slice(at + 1);
  if (/^[1-9][0-9]{0,8}$/.test(suffix)) return { agentId, version: Number(suffix) };
  if (suffix === LATEST_CHANNEL || ChannelName.safeParse(suffix).success) return { agentId, channel: suffix };
  return undefined;
}

/** The agent a name is of, whatever channel or version it names (`support-triage@7` → `support-triage`). */
export function getAgentIdOf(name: string, separator: AgentNameSeparator): string {
  return name.split(separator, 1)[0]!;
}

/** The name a caller uses for an agent's channel: `support-triage@staging`, or `support-triage.staging` in MCP. */
export function getAgentName(agentId: string, channel: string, separator: AgentNameSeparator): string {
  return `${agentId}${separator}${channel}`;
}

/** An agent name resolved: the version that runs, its record, and the channel it came from. */
export interface ResolvedAgentName {
  agentId: string;
  agent: AgentRecord;
  target: ResolvedRunTarget;
}

/**
 * Resolves a name as `/v1`, `/mcp` and A2A take it, through `resolveRunTarget`: a plain agent id runs what
 * `production` serves (the latest save while there is none). Undefined for a name that is no agent; an
 * `ApiError` `not_found` naming the channel or version the agent does not have. Every request pays for this:
 * one channel read and one record read, and whether the agent exists is asked only when one of them missed.
 */
export async function resolveAgentName(
  store: WaddleStore,
  name: string,
  separator: AgentNameSeparator,
): Promise<ResolvedAgentName | undefined> {
  const parsed = parseAgentName(name, separator);
  if (!parsed) return undefined;
  const { agentId } = parsed;
  const exists = async () => (await store.getAgent(agentId)) !== undefined;
  let target: ResolvedRunTarget;
  try {
    target = await resolveRunTarget(store, agentId, { channel: parsed.channel, version: parsed.version });
  } catch (error) {
    if (!(await exists())) return undefined;
    throw error;
  }
  const agent =
    target.version === undefined
      ? await store.getAgent(agentId)
      : await store.getAgentVersion(agentId, target.version);
  if (agent) return { agentId, agent, target };
  if (!(await exists())) return undefined;
  throw new ApiError("not_found", `Agent "${agentId}" has no version ${target.version}: name a saved one.`, {
    agentId,
    version: target.version,
  });
}
