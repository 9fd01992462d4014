import type { AgentRecord, StartRunRequest } from "@waddle/protocol";
import { ApiError, notFound } from "../shared/api-error.js";
import type { WaddleStore } from "../store/waddle-store.js";

/** The saved agent a new run executes: the version asked for, or the latest; 404 when there is none. */
export async function getRunAgent(
  store: WaddleStore,
  request: Pick<StartRunRequest, "agentId" | "agentVersion">,
): Promise<AgentRecord> {
  const agent =
    request.agentVersion === undefined
      ? await store.getAgent(request.agentId)
      : await store.getAgentVersion(request.agentId, request.agentVersion);
  if (agent) return agent;
  throw request.agentVersion === undefined
    ? notFound("Agent", request.agentId)
    : new ApiError("not_found", `Agent "${request.agentId}" has no version ${request.agentVersion}.`);
}
