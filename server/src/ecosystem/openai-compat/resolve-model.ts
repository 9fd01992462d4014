import { ApiError } from "../../shared/api-error.js";
import { resolveAgentName, type ResolvedAgentName } from "../../releases/resolve-agent-name.js";
import type { WaddleStore } from "../../store/waddle-store.js";

/** OpenAI's 404 `model_not_found`, with why when the agent exists but not the channel or version named. */
export function modelNotFound(model: string, reason?: string): ApiError {
  const shown = JSON.stringify(model.slice(0, 100));
  const why = reason ? ` ${reason}` : "";
  return new ApiError(
    "not_found",
    `The model ${shown} does not exist:${why} GET /v1/models lists the agents.`,
    {
      param: "model",
      openAiCode: "model_not_found",
    },
  );
}

/**
 * A `/v1` model resolved to the version it runs: `agent` runs production (the latest save without one),
 * `agent@staging` a channel, `agent@7` a version. Any name that is none of these is `model_not_found`, and
 * says which channel or version the agent lacks.
 */
export async function resolveModel(store: WaddleStore, model: string): Promise<ResolvedAgentName> {
  let resolved: ResolvedAgentName | undefined;
  try {
    resolved = await resolveAgentName(store, model, "@");
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") throw modelNotFound(model, error.message);
    throw error;
  }
  if (!resolved) throw modelNotFound(model);
  return resolved;
}
