import { describe, expect, it } from "vitest";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { createApiRequester } from "./api-requester.js";
import { createReleasesApi } from "./releases-api.js";
import { createShadowApi } from "./shadow-api.js";

const release = {
  id: "rel_1",
  agentId: "a",
  channel: "production",
  version: 3,
  previousVersion: 2,
  kind: "release",
  releasedAt: "2026-01-01T00:00:00Z",
  releasedBy: "ann",
  notes: null,
  testRunId: "tr_1",
  overrideReason: null,
};
const emptyDiff = {
  tools: { added: [], removed: [], changed: [] },
  edges: { added: [], removed: [] },
  groups: { added: [], removed: [] },
  hints: [],
  planner: [],
  llm: [],
  other: [],
};

describe("createReleasesApi", () => {
  it("lists, releases, rolls back and diffs on the documented routes", async () => {
    const { fetcher, calls } = createRecordingFetch(({ method, url }) => {
      if (url === "/api/agents/a/channels") return { status: 200, body: { channels: [] } };
      if (url === "/api/agents/a/releases?channel=production")
        return { status: 200, body: { releases: [release] } };
      if (method === "POST" && url === "/api/agents/a/releases") return { status: 201, body: release };
      if (url === "/api/agents/a/channels/production/rollback")
        return { status: 201, body: { ...release, kind: "rollback" } };
      if (url === "/api/agents/a/diff?from=production&to=3")
        return {
          status: 200,
          body: {
            agentId: "a",
            from: { version: 2, channel: "production" },
            to: { version: 3 },
            diff: emptyDiff,
            same: true,
          },
        };
      return { status: 404, body: { code: "not_found", message: url } };
    });
    const api = createReleasesApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(api.listChannels("a")).resolves.toEqual([]);
    await expect(api.listReleases("a", { channel: "production" })).resolves.toHaveLength(1);
    await expect(
      api.createRelease("a", { version: 3, channel: "production", expectedVersion: 2 }),
    ).resolves.toMatchObject({
      id: "rel_1",
    });
    expect(calls.at(-1)?.body).toEqual({ version: 3, channel: "production", expectedVersion: 2 });
    await expect(api.rollbackChannel("a", "production")).resolves.toMatchObject({ kind: "rollback" });
    expect(calls.at(-1)?.body).toEqual({});
    await expect(api.getAgentDiff("a", "production", 3)).resolves.toMatchObject({ same: true });
  });

  it("turns a refused release into an ApiError carrying the failing cases", async () => {
    const details = { testRunId: "tr_2", status: "failed", failures: [] };
    const { fetcher } = createRecordingFetch(() => ({
      status: 409,
      body: { code: "tests_failed", message: "Version 3 failed", details },
    }));
    const api = createReleasesApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(api.createRelease("a", { version: 3, channel: "production" })).rejects.toMatchObject({
      code: "tests_failed",
      status: 409,
      details,
    });
  });
});

describe("createShadowApi", () => {
  it("starts a comparison and answers its report id, whether the report or only its id comes back", async () => {
    let answer: unknown = { reportId: "sh_2" };
    const { fetcher, calls } = createRecordingFetch(() => ({ status: 201, body: answer }));
    const api = createShadowApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(api.startShadow("a", { candidate: 3, baseline: "production" })).resolves.toBe("sh_2");
    expect(calls[0]).toMatchObject({
      method: "POST",
      url: "/api/agents/a/shadow",
      body: { candidate: 3, baseline: "production" },
    });
    answer = { nope: true };
    await expect(api.startShadow("a", { candidate: 3 })).rejects.toMatchObject({ code: "invalid_response" });
  });
});
