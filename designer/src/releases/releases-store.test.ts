import { describe, expect, it } from "vitest";
import { createAgentsApi } from "../api/agents-api.js";
import { createApiRequester } from "../api/api-requester.js";
import { createReleasesApi } from "../api/releases-api.js";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { createReleasesStore } from "./releases-store.js";

const channel = (name: string, version: number) => ({
  name,
  version,
  releasedAt: "2026-01-01T00:00:00Z",
  releasedBy: "ann",
  notes: null,
  testRunId: null,
});

describe("createReleasesStore", () => {
  it("reads an agent's channels, releases and versions on their routes, and again when refreshed", async () => {
    let production = 1;
    const { fetcher, calls } = createRecordingFetch(({ url }) => {
      if (url === "/api/agents/a/channels")
        return { status: 200, body: { channels: [channel("production", production)] } };
      if (url === "/api/agents/a/releases") return { status: 200, body: { releases: [] } };
      if (url === "/api/agents/a/versions")
        return {
          status: 200,
          body: { versions: [{ version: 2, name: "A", createdAt: "2026-01-01T00:00:00Z" }] },
        };
      return { status: 404, body: { code: "not_found", message: url } };
    });
    const http = createApiRequester({ getToken: () => null, fetch: fetcher });
    const store = createReleasesStore({ ...createReleasesApi(http), ...createAgentsApi(http) });
    await store.getState().load("a");
    expect(store.getState()).toMatchObject({ agentId: "a", loaded: true, error: null });
    expect(store.getState().channels).toEqual([channel("production", 1)]);
    expect(store.getState().versions.map((entry) => entry.version)).toEqual([2]);
    production = 2;
    await store.getState().refresh();
    expect(store.getState().channels[0]!.version).toBe(2);
    expect(calls.map((call) => call.url)).toContain("/api/agents/a/releases");
  });

  it("keeps the error of a failed read, and empties on another agent before its answer", async () => {
    const { fetcher } = createRecordingFetch(({ url }) => ({
      status: 404,
      body: { code: "not_found", message: `Agent not found: ${url}` },
    }));
    const http = createApiRequester({ getToken: () => null, fetch: fetcher });
    const store = createReleasesStore({ ...createReleasesApi(http), ...createAgentsApi(http) });
    const loading = store.getState().load("b");
    expect(store.getState()).toMatchObject({ agentId: "b", channels: [], loaded: false });
    await loading;
    expect(store.getState().error).toContain("Agent not found");
    await store.getState().load(null);
    expect(store.getState()).toMatchObject({ agentId: null, error: null, loaded: false });
  });
});
