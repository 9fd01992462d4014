import { validateAgentSpec, type AgentRecord, type StartRunRequest } from "@waddle/protocol";
import { ApiError, notFound } from "../shared/api-error.js";
import type { WaddleStore } from "../store/waddle-store.js";

/**
 * The saved agent a new run executes: the version asked for, or the latest; 404 when there is none, 422
 * `invalid_agent_version` naming its errors when that version was saved with errors.
 */
export async function getRunAgent(
  store: WaddleStore,
  request: Pick<StartRunRequest, "agentId" | "agentVersion">,
): Promise<AgentRecord> {
  const agent =
    request.agentVersion === undefined
      ? await store.getAgent(request.agentId)
      : await store.getAgentVersion(request.agentId, request.agentVersion);
  if (agent?.invalid) {
    const errors = validateAgentSpec(agent.spec).issues.filter((issue) => issue.severity === "error");
    const named = errors
      .slice(0, 3)
      .map((issue) => `${issue.path}: ${issue.message}`)
      .join("; ");
    throw new ApiError(
      "invalid_agent_version",
      `Version ${agent.version} of "${agent.id}" was saved with errors, so it cannot run${named ? `: ${named}${errors.length > 3 ? ` (+${errors.length - 3} more)` : ""}` : ""}. Fix them and save a new version.`,
      { agentId: agent.id, version: agent.version, issues: errors },
    );
  }
  if (agent) return agent;
  throw request.agentVersion === undefined
    ? notFound("Agent", request.agentId)
    : new ApiError("not_found", `Agent "${request.agentId}" has no version ${request.agentVersion}.`);
}
