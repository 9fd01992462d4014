import type { Actor } from "../../../access/actor.js";
import { inScope } from "../../../access/permissions.js";
import { ApiError } from "../../../shared/api-error.js";
import type { WaddleStore } from "../../../store/waddle-store.js";

/**
 * Checks that a session named by a `/v1` request (`conversation`, `x-waddle-session-id`) may be continued
 * with `model`: one of an agent outside the key's scope answers exactly as an unknown id (404), so that a
 * scoped key cannot learn it exists; one of another agent the key may see is a 400 naming the parameter.
 */
export async function checkSessionScope(
  store: WaddleStore,
  actor: Actor,
  options: { sessionId: string; model: string; param: string },
): Promise<void> {
  const { sessionId, model, param } = options;
  const session = await store.sessions.get(sessionId);
  if (!session || !inScope(actor, session.agentId)) {
    throw new ApiError("not_found", `No conversation "${sessionId.slice(0, 100)}".`, { param });
  }
  if (session.agentId !== model) throw otherModel(param, "conversation", session.agentId);
}

/** A response or conversation of another agent the key may see: it cannot be continued with this model. */
export function otherModel(param: string, what: "response" | "conversation", model: string): ApiError {
  return new ApiError(
    "validation_failed",
    `That ${what} belongs to a different model ("${model}"): continue it with model "${model}", or leave ` +
      `${param} out to start a new conversation.`,
    { param },
  );
}
