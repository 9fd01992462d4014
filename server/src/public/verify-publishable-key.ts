import { PRODUCTION_CHANNEL } from "@waddle/protocol";
import type { PublicChatStores, StoredPublicChat } from "../store/public/public-chat-store.js";
import { isSameKey, parsePublishableKey } from "./public-credentials.js";

/** What a valid publishable key grants: one agent, served as its public chat serves it. */
export interface PublishableKeyGrant {
  agentId: string;
  publicId: string;
  /**
   * The channel the chat serves, for `resolveRunTarget`: undefined means `production`, or the latest save
   * while the agent has no production release (as a caller who names nothing gets).
   */
  channel: string | undefined;
  /** The chat as read for this call: its limits, origins and `showSteps` apply to it. */
  chat: StoredPublicChat;
}

/**
 * Checks a publishable key (`wpk_…`) against the store on every call, so a rotated key is refused at once
 * on every instance: the chat's current key, the chat enabled, its agent still there. Null otherwise, for
 * whatever reason (the caller answers 404 alike). AG-UI (`/agui/:agentId`) accepts a key only for
 * `grant.agentId`.
 */
export async function verifyPublishableKey(
  store: { publicChat: PublicChatStores; getAgent(id: string): Promise<unknown> },
  key: string,
): Promise<PublishableKeyGrant | null> {
  const parsed = parsePublishableKey(key);
  if (!parsed) return null;
  const chat = await store.publicChat.chats.getByKeyId(parsed.keyId);
  if (!chat || !isSameKey(key, chat.publishableKey) || !chat.settings.enabled) return null;
  if ((await store.getAgent(chat.agentId)) === undefined) return null;
  const channel = chat.settings.channel;
  return {
    agentId: chat.agentId,
    publicId: chat.publicId,
    channel: channel === PRODUCTION_CHANNEL ? undefined : channel,
    chat,
  };
}
