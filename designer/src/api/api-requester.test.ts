import { HealthResponse, ToolsResponse } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { ApiError } from "./api-error.js";
import { createApiRequester, route, withQuery } from "./api-requester.js";

describe("createApiRequester", () => {
  it("sends the token and JSON bodies, and parses answers with the schema given", async () => {
    const { fetcher, calls } = createRecordingFetch(() => ({
      status: 200,
      body: { ok: true, version: "1" },
    }));
    const http = createApiRequester({ getToken: () => "secret", fetch: fetcher, baseUrl: "http://h" });
    await expect(http.json("POST", "/api/x", HealthResponse, { a: 1 })).resolves.toMatchObject({ ok: true });
    expect(calls[0]).toMatchObject({
      method: "POST",
      url: "http://h/api/x",
      headers: { authorization: "Bearer secret", "content-type": "application/json" },
      body: { a: 1 },
    });
  });

  it("rejects an answer of the wrong shape, and one that is not JSON", async () => {
    let body: unknown = { tools: [{ name: 3 }] };
    const { fetcher } = createRecordingFetch(() => ({ status: 200, body }));
    const http = createApiRequester({ getToken: () => null, fetch: fetcher });
    await expect(http.json("GET", "/api/tools", ToolsResponse)).rejects.toMatchObject({
      code: "invalid_response",
    });
    body = "<html>";
    await expect(http.json("GET", "/api/tools", ToolsResponse)).rejects.toMatchObject({
      code: "invalid_response",
    });
  });

  it("turns a 409 into a conflict error with parsed details", async () => {
    const { fetcher } = createRecordingFetch(() => ({
      status: 409,
      body: { code: "conflict", message: "stale", details: { currentVersion: 4, baseVersion: 3 } },
    }));
    const http = createApiRequester({ getToken: () => null, fetch: fetcher });
    const error = await http.request("PUT", "/api/agents/a", {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: "conflict",
      status: 409,
      details: { currentVersion: 4, baseVersion: 3 },
    });
  });

  it("names the status when an error answer has no error body", async () => {
    const { fetcher } = createRecordingFetch(() => ({ status: 502 }));
    const http = createApiRequester({ getToken: () => null, fetch: fetcher });
    await expect(http.request("GET", "/api/health")).rejects.toMatchObject({ code: "internal", status: 502 });
  });

  it("asks for a token on 401 and retries once with it", async () => {
    let token: string | null = null;
    let prompts = 0;
    const { fetcher, calls } = createRecordingFetch(({ headers }) =>
      headers.authorization === "Bearer right"
        ? { status: 200, body: { ok: true, version: "1" } }
        : { status: 401, body: { code: "unauthorized", message: "token" } },
    );
    const http = createApiRequester({
      getToken: () => token,
      fetch: fetcher,
      onUnauthorized: async () => {
        prompts += 1;
        token = "right";
        return true;
      },
    });
    await expect(http.json("GET", "/api/health", HealthResponse)).resolves.toMatchObject({ ok: true });
    expect(prompts).toBe(1);
    expect(calls).toHaveLength(2);
  });

  it("gives up after one retry, and when no new token is stored", async () => {
    const { fetcher, calls } = createRecordingFetch(() => ({
      status: 401,
      body: { code: "unauthorized", message: "token" },
    }));
    let answer = true;
    const http = createApiRequester({
      getToken: () => "wrong",
      fetch: fetcher,
      onUnauthorized: async () => answer,
    });
    await expect(http.request("GET", "/api/health")).rejects.toMatchObject({
      code: "unauthorized",
      status: 401,
    });
    expect(calls).toHaveLength(2);
    answer = false;
    await expect(http.request("GET", "/api/health")).rejects.toMatchObject({ code: "unauthorized" });
    expect(calls).toHaveLength(3);
  });

  it("reports an unreachable server as a network error", async () => {
    const http = createApiRequester({
      getToken: () => null,
      fetch: (async () => {
        throw new TypeError("fetch failed");
      }) as typeof fetch,
    });
    await expect(http.request("GET", "/api/tools")).rejects.toMatchObject({
      code: "network_error",
      status: 0,
    });
  });
});

describe("route and withQuery", () => {
  it("encodes every interpolated value, and only those", () => {
    expect(route`/api/agents/${"a/b c"}/versions/${3}`).toBe("/api/agents/a%2Fb%20c/versions/3");
    expect(route`/api/health`).toBe("/api/health");
  });

  it("adds a query string only when there are parameters", () => {
    expect(withQuery("/api/runs", new URLSearchParams())).toBe("/api/runs");
    expect(withQuery("/api/runs", new URLSearchParams({ status: "a,b" }))).toBe("/api/runs?status=a%2Cb");
  });
});
