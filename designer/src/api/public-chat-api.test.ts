import { describe, expect, it } from "vitest";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { createApiRequester } from "./api-requester.js";
import { createPublicChatApi } from "./public-chat-api.js";

const chat = {
  agentId: "support",
  publicId: "pub_0a1b",
  publishableKey: "wpk_abcdefabcdef_" + "k".repeat(43),
  updatedAt: "2026-01-01T00:00:00Z",
  updatedBy: "admin",
  enabled: true,
  title: "Support",
  allowedOrigins: ["https://shop.example"],
  showSteps: "names",
};

describe("createPublicChatApi", () => {
  it("reads, saves and rotates on the agent's public routes", async () => {
    const { fetcher, calls } = createRecordingFetch(() => ({ status: 200, body: chat }));
    const api = createPublicChatApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(api.getPublicChat("support")).resolves.toMatchObject({ publicId: "pub_0a1b" });
    const { agentId, publicId, publishableKey, updatedAt, updatedBy, ...settings } = chat;
    void [agentId, publicId, publishableKey, updatedAt, updatedBy];
    await api.putPublicChat("support", { ...settings, showSteps: "names" });
    await api.rotatePublicKey("support");
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET /api/agents/support/public",
      "PUT /api/agents/support/public",
      "POST /api/agents/support/public/rotate-key",
    ]);
    expect(calls[1]?.body).toEqual(settings);
  });

  it("answers null for an agent never published, and throws other refusals", async () => {
    const { fetcher } = createRecordingFetch((request) =>
      request.url.includes("never")
        ? { status: 404, body: { code: "public_chat_not_configured", message: "none yet" } }
        : { status: 404, body: { code: "not_found", message: "no agent" } },
    );
    const api = createPublicChatApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(api.getPublicChat("never")).resolves.toBeNull();
    await expect(api.getPublicChat("gone")).rejects.toMatchObject({ code: "not_found" });
  });
});
