import { AgentDraft } from "@waddle/protocol";
import { ApiError } from "./api-error.js";
import { route, type ApiRequester } from "./api-requester.js";

/** `/api/agents/:id/draft`: an agent's unsaved edits, kept on the server. */
export function createDraftsApi(http: ApiRequester) {
  return {
    /** The agent's unsaved edits kept on the server; null when there are none. */
    async getDraft(id: string): Promise<AgentDraft | null> {
      try {
        return await http.json("GET", route`/api/agents/${id}/draft`, AgentDraft);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },

    async putDraft(id: string, draft: { baseVersion: number | null; spec: unknown }): Promise<void> {
      await http.json("PUT", route`/api/agents/${id}/draft`, AgentDraft, draft);
    },

    async deleteDraft(id: string): Promise<void> {
      await http.request("DELETE", route`/api/agents/${id}/draft`);
    },
  };
}

export type DraftsApi = ReturnType<typeof createDraftsApi>;
