import { describe, expect, it } from "vitest";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { makeSpec } from "../testing/make-spec.js";
import { createAgentsApi } from "./agents-api.js";
import { createApiClient } from "./api-client.js";
import type { ApiRequester } from "./api-requester.js";
import { createCredentialsApi } from "./credentials-api.js";
import { createDraftsApi } from "./drafts-api.js";
import { createGuardsApi } from "./guards-api.js";
import { createInboxApi } from "./inbox-api.js";
import { createKeysApi } from "./keys-api.js";
import { createPublicChatApi } from "./public-chat-api.js";
import { createReleasesApi } from "./releases-api.js";
import { createRunsApi } from "./runs-api.js";
import { createSessionsApi } from "./sessions-api.js";
import { createShadowApi } from "./shadow-api.js";
import { createTestsApi } from "./tests-api.js";
import { createToolsApi } from "./tools-api.js";
import { createTriggersApi } from "./triggers-api.js";

describe("createApiClient", () => {
  it("holds every resource's calls, no two of one name", () => {
    const http = {} as ApiRequester;
    const names = [
      createAgentsApi,
      createDraftsApi,
      createRunsApi,
      createSessionsApi,
      createTestsApi,
      createToolsApi,
      createCredentialsApi,
      createKeysApi,
      createPublicChatApi,
      createReleasesApi,
      createShadowApi,
      createInboxApi,
      createTriggersApi,
      createGuardsApi,
    ].flatMap((create) => Object.keys(create(http)));
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(createApiClient({ getToken: () => null })).sort()).toEqual([...names].sort());
  });

  it("reads an agent on its route with the token, checked with the protocol schema", async () => {
    const record = { id: "test-agent", version: 3, spec: makeSpec(), updatedAt: "2025-01-01T00:00:00Z" };
    const { fetcher, calls } = createRecordingFetch(() => ({ status: 200, body: record }));
    const client = createApiClient({ getToken: () => "secret", fetch: fetcher });
    const answer = await client.getAgent("test-agent");
    expect(answer.spec.tools).toHaveLength(3);
    expect(calls[0]).toMatchObject({
      method: "GET",
      url: "/api/agents/test-agent",
      headers: { authorization: "Bearer secret" },
    });
  });

  it("rejects an agent list of the wrong shape", async () => {
    const { fetcher } = createRecordingFetch(() => ({
      status: 200,
      body: { agents: [{ id: "Not A Slug" }] },
    }));
    const client = createApiClient({ getToken: () => null, fetch: fetcher });
    await expect(client.listAgents()).rejects.toMatchObject({ code: "invalid_response" });
  });

  it("saves a version with its base version; a stale one is a conflict with parsed details", async () => {
    const { fetcher, calls } = createRecordingFetch(() => ({
      status: 409,
      body: { code: "conflict", message: "stale", details: { currentVersion: 4, baseVersion: 3 } },
    }));
    const client = createApiClient({ getToken: () => null, fetch: fetcher });
    await expect(
      client.updateAgent("test-agent", { spec: makeSpec(), baseVersion: 3 }),
    ).rejects.toMatchObject({
      code: "conflict",
      status: 409,
      details: { currentVersion: 4, baseVersion: 3 },
    });
    expect(calls[0]).toMatchObject({
      method: "PUT",
      url: "/api/agents/test-agent",
      body: { baseVersion: 3 },
    });
  });

  it("answers no draft on a 404", async () => {
    const { fetcher } = createRecordingFetch(() => ({
      status: 404,
      body: { code: "not_found", message: "none" },
    }));
    const client = createApiClient({ getToken: () => null, fetch: fetcher });
    await expect(client.getDraft("test-agent")).resolves.toBeNull();
  });
});
