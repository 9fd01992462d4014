import { describe, expect, it } from "vitest";
import { MemoryPublicChatStores } from "../store/public/memory-public-stores.js";
import type { StoredPublicChat } from "../store/public/public-chat-store.js";
import {
  createPublicId,
  createVisitorSecret,
  createVisitorToken,
  generatePublishableKey,
  isPublicCredential,
  readVisitorToken,
} from "./public-credentials.js";
import { verifyPublishableKey } from "./verify-publishable-key.js";

function setUp() {
  const agents = new Set(["support"]);
  const store = {
    publicChat: new MemoryPublicChatStores(),
    getAgent: async (id: string) => (agents.has(id) ? { id } : undefined),
  };
  const { keyId, key } = generatePublishableKey();
  const chat: StoredPublicChat = {
    agentId: "support",
    publicId: createPublicId(),
    keyId,
    publishableKey: key,
    visitorSecret: createVisitorSecret(),
    settings: { enabled: true, title: "Support", allowedOrigins: [], showSteps: "none" },
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    updatedBy: "ops",
  };
  return { store, chat, key, agents };
}

describe("verifyPublishableKey", () => {
  it("grants the chat's agent for its current key, production meaning production-else-latest", async () => {
    const { store, chat, key } = setUp();
    await store.publicChat.chats.put(chat);
    expect(await verifyPublishableKey(store, key)).toEqual({
      agentId: "support",
      publicId: chat.publicId,
      channel: undefined,
      chat,
    });
    await store.publicChat.chats.put({ ...chat, settings: { ...chat.settings, channel: "production" } });
    expect((await verifyPublishableKey(store, key))?.channel).toBeUndefined();
    await store.publicChat.chats.put({ ...chat, settings: { ...chat.settings, channel: "staging" } });
    expect((await verifyPublishableKey(store, key))?.channel).toBe("staging");
  });

  it("refuses a rotated, altered, malformed or disabled key, and one whose agent is gone", async () => {
    const { store, chat, key, agents } = setUp();
    await store.publicChat.chats.put(chat);
    const altered = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    expect(await verifyPublishableKey(store, altered)).toBeNull();
    expect(await verifyPublishableKey(store, "wpk_short")).toBeNull();
    expect(await verifyPublishableKey(store, "wdl_abc")).toBeNull();
    const next = generatePublishableKey();
    await store.publicChat.chats.put({ ...chat, keyId: next.keyId, publishableKey: next.key });
    expect(await verifyPublishableKey(store, key)).toBeNull();
    expect(await verifyPublishableKey(store, next.key)).not.toBeNull();
    await store.publicChat.chats.put({
      ...chat,
      keyId: next.keyId,
      publishableKey: next.key,
      settings: { ...chat.settings, enabled: false },
    });
    expect(await verifyPublishableKey(store, next.key)).toBeNull();
    await store.publicChat.chats.put({ ...chat, keyId: next.keyId, publishableKey: next.key });
    agents.delete("support");
    expect(await verifyPublishableKey(store, next.key)).toBeNull();
  });
});

describe("visitor tokens", () => {
  it("name their visitor only for the chat and secret they were signed with", () => {
    const secret = createVisitorSecret();
    const { visitorId, token } = createVisitorToken(secret, "pub_a");
    expect(isPublicCredential(token)).toBe(true);
    expect(readVisitorToken(secret, "pub_a", token)).toBe(visitorId);
    expect(readVisitorToken(secret, "pub_b", token)).toBeUndefined();
    expect(readVisitorToken(createVisitorSecret(), "pub_a", token)).toBeUndefined();
    const otherVisitor = token.replace(visitorId, "0".repeat(32));
    expect(readVisitorToken(secret, "pub_a", otherVisitor)).toBeUndefined();
    expect(readVisitorToken(secret, "pub_a", `${token}x`)).toBeUndefined();
  });
});
