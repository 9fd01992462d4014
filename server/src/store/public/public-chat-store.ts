import type { PublicChatSettings } from "@waddle/protocol";
import type { RunRatingStore } from "./run-rating-store.js";
import type { VisitorSessionStore } from "./visitor-session-store.js";

/**
 * An agent's public chat as stored (issue 33). The publishable key is kept whole: it is public by design
 * (every page that embeds the chat holds it, and the hosted page is served with it), so a hash would
 * protect nothing and leave the server unable to show it or serve the page. Requests are checked against
 * `keyId` and the key in constant time (server/src/public/verify-publishable-key.ts).
 */
export interface StoredPublicChat {
  agentId: string;
  /** Random, never the agent id: `/public/:publicId`, `/chat/:publicId`. */
  publicId: string;
  /** The lookup part of the key (`wpk_<keyId>_<secret>`): a rotated key gets a new one. */
  keyId: string;
  publishableKey: string;
  /** Signs the chat's visitor tokens (HMAC-SHA256, base64url): the same on every instance. */
  visitorSecret: string;
  settings: PublicChatSettings;
  createdAt: string;
  updatedAt: string;
  updatedBy: string;
}

/** Public chats, one per agent; SQLite, PostgreSQL and in-memory under one suite (`public-store-cases.ts`). */
export interface PublicChatStore {
  get(agentId: string): Promise<StoredPublicChat | undefined>;
  getByPublicId(publicId: string): Promise<StoredPublicChat | undefined>;
  getByKeyId(keyId: string): Promise<StoredPublicChat | undefined>;
  /** Creates the agent's chat or replaces it whole (its `createdAt` stays the first one's). */
  put(chat: StoredPublicChat): Promise<StoredPublicChat>;
  /** Forgets the agent's chat; false when it had none. */
  delete(agentId: string): Promise<boolean>;
}

/** What the store keeps of the public side: chats, which visitor owns which session, ratings of runs. */
export interface PublicChatStores {
  readonly chats: PublicChatStore;
  readonly visitors: VisitorSessionStore;
  readonly ratings: RunRatingStore;
}
