import { PutDraftRequest, type AgentDraft } from "@waddle/protocol";
import { Router } from "express";
import { ApiError, notFound } from "../shared/api-error.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { AgentIdParam, parseRequest } from "./validate-request.js";

/**
 * `/api/agents/:id/draft`: the unsaved edits of a saved agent, kept on the server so that a reload, a crash
 * or another browser brings them back. A draft of an agent that no longer exists is dropped when read.
 */
export function createDraftRoutes(options: { store: WaddleStore }): Router {
  const { store } = options;
  const router = Router({ mergeParams: true });

  router.get("/", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    if (!(await store.getAgent(id))) {
      await store.drafts.delete(id);
      throw notFound("Agent", id);
    }
    const draft = await store.drafts.get(id);
    if (!draft)
      throw new ApiError("not_found", `Agent "${id}" has no draft: its saved version is all there is.`);
    response.json(draft);
  });

  router.put("/", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const body = parseRequest(PutDraftRequest, request.body, "body");
    if (!(await store.getAgent(id))) throw notFound("Agent", id);
    const draft: AgentDraft = { agentId: id, ...body, updatedAt: new Date().toISOString() };
    await store.drafts.put(draft);
    response.json(draft);
  });

  router.delete("/", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    await store.drafts.delete(id);
    response.status(204).end();
  });

  return router;
}
