import {
  LATEST_CHANNEL,
  PRODUCTION_CHANNEL,
  type PublicChat,
  type PublicChatSettings,
} from "@waddle/protocol";
import { ApiError, notFound } from "../shared/api-error.js";
import type { StoredPublicChat } from "../store/public/public-chat-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { checkAllowedOrigins } from "./check-allowed-origins.js";
import { createPublicId, createVisitorSecret, generatePublishableKey } from "./public-credentials.js";

/** The chat as `GET`/`PUT /api/agents/:id/public` answer it: its settings, ids and publishable key. */
export function toPublicChat(chat: StoredPublicChat): PublicChat {
  return {
    ...chat.settings,
    agentId: chat.agentId,
    publicId: chat.publicId,
    publishableKey: chat.publishableKey,
    updatedAt: chat.updatedAt,
    updatedBy: chat.updatedBy,
  };
}

/**
 * An agent's public chat as editors set it (issue 33): read, create or replace the settings (the public id
 * and key are made on the first PUT and kept), rotate the key. Every refusal names what to fix.
 */
export class PublicChatAdmin {
  constructor(private readonly store: WaddleStore) {}

  /** 404 for an unknown agent; 404 `public_chat_not_configured` before the first PUT. */
  async get(agentId: string): Promise<StoredPublicChat> {
    await this.requireAgent(agentId);
    const chat = await this.store.publicChat.chats.get(agentId);
    if (!chat) {
      throw new ApiError(
        "public_chat_not_configured",
        `Agent "${agentId}" has no public chat yet: PUT /api/agents/${agentId}/public with its settings to make one.`,
        { agentId },
      );
    }
    return chat;
  }

  /** Creates or replaces the settings; `created` when this made the chat (and its id and key). */
  async put(options: {
    agentId: string;
    settings: PublicChatSettings;
    actor: string;
  }): Promise<{ chat: StoredPublicChat; created: boolean }> {
    const { agentId, settings, actor } = options;
    await this.requireAgent(agentId);
    const allowedOrigins = checkAllowedOrigins(settings.allowedOrigins, settings.allowAnyOrigin === true);
    await this.checkChannel(agentId, settings.channel);
    const now = new Date().toISOString();
    const known = await this.store.publicChat.chats.get(agentId);
    const key = known ? undefined : generatePublishableKey();
    const chat = await this.store.publicChat.chats.put({
      agentId,
      publicId: known?.publicId ?? createPublicId(),
      keyId: known?.keyId ?? key!.keyId,
      publishableKey: known?.publishableKey ?? key!.key,
      visitorSecret: known?.visitorSecret ?? createVisitorSecret(),
      settings: { ...settings, allowedOrigins },
      createdAt: known?.createdAt ?? now,
      updatedAt: now,
      updatedBy: actor,
    });
    return { chat, created: known === undefined };
  }

  /** A new publishable key; the old one is refused from now on (every request reads the store). */
  async rotateKey(options: { agentId: string; actor: string }): Promise<StoredPublicChat> {
    const known = await this.get(options.agentId);
    const { keyId, key } = generatePublishableKey();
    return this.store.publicChat.chats.put({
      ...known,
      keyId,
      publishableKey: key,
      updatedAt: new Date().toISOString(),
      updatedBy: options.actor,
    });
  }

  private async requireAgent(agentId: string): Promise<void> {
    if (!(await this.store.getAgent(agentId))) throw notFound("Agent", agentId);
  }

  /** A channel other than production and latest must exist: a chat on nothing would 404 every visitor. */
  private async checkChannel(agentId: string, channel: string | undefined): Promise<void> {
    if (channel === undefined || channel === PRODUCTION_CHANNEL || channel === LATEST_CHANNEL) return;
    if (await this.store.releases.getChannel(agentId, channel)) return;
    throw new ApiError(
      "validation_failed",
      `Fix the field "channel" of the request body: agent "${agentId}" has no channel "${channel}". Release a version to it first, or leave channel out to serve production (the latest save until there is one).`,
      { where: "body", issues: [{ path: "$.channel", message: `no channel "${channel}"`, code: "custom" }] },
    );
  }
}
