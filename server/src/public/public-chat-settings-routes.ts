import { PublicChatSettings } from "@waddle/protocol";
import { Router } from "express";
import { actorOf } from "../access/actor.js";
import { audit } from "../access/audit-trail.js";
import { AgentIdParam, parseRequest } from "../http/validate-request.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { PublicChatAdmin, toPublicChat } from "./public-chat-admin.js";

/**
 * `GET`/`PUT /api/agents/:id/public` and `POST /api/agents/:id/public/rotate-key` (issue 33). A viewer may
 * read the publishable key: it is meant for web pages, and grants only what a visitor can do.
 */
export function createPublicChatSettingsRoutes(options: { store: WaddleStore }): Router {
  const admin = new PublicChatAdmin(options.store);
  const router = Router();

  router.get("/agents/:id/public", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    response.json(toPublicChat(await admin.get(id)));
  });

  router.put("/agents/:id/public", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const settings = parseRequest(PublicChatSettings, request.body, "body");
    const { chat, created } = await admin.put({ agentId: id, settings, actor: actorOf(response).name });
    await audit(response, {
      action: "public_chat.updated",
      target: { type: "agent", id },
      details: {
        publicId: chat.publicId,
        created,
        enabled: chat.settings.enabled,
        channel: chat.settings.channel ?? null,
        allowedOrigins: chat.settings.allowedOrigins,
        showSteps: chat.settings.showSteps,
        rateLimit: chat.settings.rateLimit ?? null,
        chatRateLimit: chat.settings.chatRateLimit ?? null,
        maxTurns: chat.settings.maxTurns ?? null,
      },
    });
    response.json(toPublicChat(chat));
  });

  router.post("/agents/:id/public/rotate-key", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const chat = await admin.rotateKey({ agentId: id, actor: actorOf(response).name });
    await audit(response, {
      action: "public_chat.key_rotated",
      target: { type: "agent", id },
      details: { publicId: chat.publicId },
    });
    response.json(toPublicChat(chat));
  });

  return router;
}
