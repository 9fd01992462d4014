import { PublicChat, type PublicChatSettings } from "@waddle/protocol";
import { isApiError } from "./api-error.js";
import { route, type ApiRequester } from "./api-requester.js";

/** `/api/agents/:id/public` and its key rotation: an agent's public chat as its editors set it (issue 33). */
export function createPublicChatApi(http: ApiRequester) {
  return {
    /** The agent's public chat, or null while it has none (never published). */
    async getPublicChat(agentId: string): Promise<PublicChat | null> {
      try {
        return await http.json("GET", route`/api/agents/${agentId}/public`, PublicChat);
      } catch (error) {
        if (isApiError(error, "public_chat_not_configured")) return null;
        throw error;
      }
    },

    /** Creates or replaces the settings; a bad origin throws ApiError `validation_failed` naming it. */
    async putPublicChat(agentId: string, settings: PublicChatSettings): Promise<PublicChat> {
      return http.json("PUT", route`/api/agents/${agentId}/public`, PublicChat, settings);
    },

    /** A new publishable key; pages holding the old one are refused from now on. */
    async rotatePublicKey(agentId: string): Promise<PublicChat> {
      return http.json("POST", route`/api/agents/${agentId}/public/rotate-key`, PublicChat);
    },
  };
}

export type PublicChatApi = ReturnType<typeof createPublicChatApi>;
