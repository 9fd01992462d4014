import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { TestCredentialResponse } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const KEY = "sk-fixture-key-0123456789abcdef";
let listing: OpenAiFixtureServer;
let unlisted: OpenAiFixtureServer;
/** An endpoint that answers every request with an error quoting the key, as some do. */
let echoing: Server;
let echoingUrl: string;
let closedUrl: string;
let server: TestServer;

beforeAll(async () => {
  listing = await startOpenAiFixtureServer({ apiKey: KEY, models: ["model-b", "model-a"] });
  unlisted = await startOpenAiFixtureServer({ apiKey: KEY, listModels: false, models: ["only-model"] });
  echoing = createServer((request, response) => {
    request.resume();
    response.writeHead(500, { "content-type": "application/json" });
    response.end(
      JSON.stringify({ error: { message: `Upstream down for ${request.headers.authorization}` } }),
    );
  });
  await new Promise<void>((resolve) => echoing.listen(0, "127.0.0.1", resolve));
  echoingUrl = `http://127.0.0.1:${(echoing.address() as AddressInfo).port}/v1`;
  // A port that was free a moment ago: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/v1`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  server = await startTestServer();
  const put = (name: string, body: Record<string, unknown>) =>
    server.request(`/api/credentials/${name}`, { method: "PUT", json: { kind: "llm", ...body } });
  await put("LISTING", { value: KEY, baseUrl: listing.baseURL });
  await put("UNLISTED", { value: KEY, baseUrl: unlisted.baseURL, models: ["only-model"] });
  await put("UNLISTED_NO_MODELS", { value: KEY, baseUrl: unlisted.baseURL });
  await put("WRONG_KEY", { value: "sk-wrong-0123456789", baseUrl: listing.baseURL });
  await put("ECHOING", { value: KEY, baseUrl: echoingUrl });
  await put("CLOSED", { value: KEY, baseUrl: closedUrl });
  await server.request("/api/credentials/A_SECRET", {
    method: "PUT",
    json: { kind: "secret", value: "not-an-llm-key-0123" },
  });
});
afterAll(async () => {
  await server?.stop();
  await listing?.close();
  await unlisted?.close();
  await new Promise<void>((resolve) => echoing.close(() => resolve()));
});

async function test(name: string, body: Record<string, unknown> = {}) {
  const answer = await server.request(`/api/credentials/${name}/test`, { method: "POST", json: body });
  return { status: answer.status, body: answer.body as unknown, text: answer.text };
}

describe("POST /api/credentials/:name/test", () => {
  it("lists the endpoint's models with the stored key", async () => {
    const answer = await test("LISTING");
    expect(answer.status).toBe(200);
    expect(TestCredentialResponse.parse(answer.body)).toEqual({
      ok: true,
      endpoint: listing.baseURL,
      via: "models",
      models: ["model-a", "model-b"],
    });
    expect(listing.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("makes a one-token call when the endpoint lists no models, with the credential's model", async () => {
    const before = unlisted.completionRequests.length;
    unlisted.enqueue(fixtureReply.text("p"), fixtureReply.text("p"));
    const answer = await test("UNLISTED");
    expect(answer.body).toEqual({
      ok: true,
      endpoint: unlisted.baseURL,
      via: "completion",
      models: ["only-model"],
    });
    const call = unlisted.completionRequests[before];
    expect(call?.body).toMatchObject({ model: "only-model", max_tokens: 1 });
    // A model named in the request wins over the credential's own.
    expect((await test("UNLISTED", { model: "picked" })).body).toMatchObject({ models: ["picked"] });
  });

  it("says what to do when there is neither a model list nor a model to try", async () => {
    const answer = await test("UNLISTED_NO_MODELS");
    expect(answer.body).toMatchObject({ ok: false, code: "no_model_to_try", status: 404 });
  });

  it("says the key was refused on a 401, without the key", async () => {
    const answer = await test("WRONG_KEY");
    expect(answer.body).toMatchObject({ ok: false, code: "key_refused", status: 401 });
    expect(String((answer.body as { message: string }).message)).toMatch(/replace the credential's value/);
  });

  it("says the endpoint is unreachable when nothing listens there", async () => {
    const answer = await test("CLOSED");
    expect(answer.body).toMatchObject({ ok: false, code: "unreachable", endpoint: closedUrl });
    expect(String((answer.body as { message: string }).message)).toContain("connection refused");
  });

  it("refuses an endpoint the LLM allow-list lacks, sending nothing", async () => {
    const before = listing.requests.length;
    const answer = await test("LISTING", { baseUrl: "http://127.0.0.2:9/v1" });
    expect(answer.body).toMatchObject({
      ok: false,
      code: "host_not_allowed",
      endpoint: "http://127.0.0.2:9/v1",
    });
    expect(String((answer.body as { message: string }).message)).toContain("LLM allow-list");
    expect(listing.requests.length).toBe(before);
  });

  it("passes on the endpoint's error message with the key taken out", async () => {
    const answer = await test("ECHOING");
    expect(answer.body).toMatchObject({ ok: false, code: "endpoint_error", status: 500 });
    expect(answer.text).not.toContain(KEY);
    expect(answer.text).toContain("[redacted]");
  });

  it("answers 404 for a name that is no LLM credential, and 400 for a bad body", async () => {
    expect(await test("NOPE")).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await test("A_SECRET")).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await test("LISTING", { baseUrl: "ftp://x" })).toMatchObject({
      status: 400,
      body: { code: "validation_failed" },
    });
  });
});
