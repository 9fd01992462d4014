import { Router } from "express";
import { z } from "zod";
import type { ServerSettingsView } from "../agents/server-settings-view.js";
import { ApiError } from "../shared/api-error.js";
import { ToolExecutionError } from "../tools/tool-execution-error.js";
import { parseRequest } from "./validate-request.js";

export const A2aCardRequest = z.strictObject({ url: z.string().trim().min(1).max(4_000) });

/**
 * `POST /api/a2a/card` `{url}`: reads a remote A2A agent's card through this server's http allow-list
 * (capped, with a timeout) and answers its summary (name, description, skills, streaming), for the
 * palette's **A2A agent**. A host off the list, a card that is malformed or too big: 422 with
 * `details.reason` (`host_not_allowed`, `a2a_card_invalid`, `a2a_unavailable`…) and what to fix.
 */
export function createA2aCardRoutes(options: { settings?: ServerSettingsView }): Router {
  const router = Router();
  router.post("/card", async (request, response) => {
    const { url } = parseRequest(A2aCardRequest, request.body, "body");
    const read = options.settings?.readA2aCard;
    if (!read) throw new ApiError("not_found", "This server reads no A2A cards.");
    await options.settings?.refresh?.();
    try {
      response.json({ card: await read(url) });
    } catch (error) {
      if (error instanceof ToolExecutionError) {
        throw new ApiError("invalid_spec", error.message, { reason: error.code, ...error.details });
      }
      throw error;
    }
  });
  return router;
}
