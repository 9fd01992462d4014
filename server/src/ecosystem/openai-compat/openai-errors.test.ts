import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendWithHost } from "../../testing/send-with-host.js";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";

let server: TestServer;
let openai: OpenAI;
beforeAll(async () => {
  server = await startTestServer();
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused-without-a-token" });
});
afterAll(() => server.stop());

describe("errors in OpenAI's shape", () => {
  it("404 for an unknown model", async () => {
    const error = await openai.chat.completions
      .create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      code: "model_not_found",
      param: "model",
      type: "invalid_request_error",
    });
    await expect(openai.models.retrieve("no-such-agent")).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("400 for a body that does not fit, naming the field", async () => {
    const missing = await server.request("/v1/chat/completions", {
      method: "POST",
      json: { model: "support-triage" },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      error: {
        message: expect.stringMatching(/messages/),
        type: "invalid_request_error",
        param: "messages",
        code: "validation_failed",
      },
    });
    const error = await openai.chat.completions
      .create({
        model: "support-triage",
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "hello" },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({
      param: "messages[1]",
      message: expect.stringMatching(/last message must be the user's/),
    });
    const text = await server.request("/v1/chat/completions", {
      method: "POST",
      body: "hi",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect(text.body.error.type).toBe("invalid_request_error");
  });

  it("403 for another Host, as the API", async () => {
    const answer = await sendWithHost({
      port: server.port,
      path: "/v1/models",
      host: `evil.example:${server.port}`,
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error).toMatchObject({
      message: expect.stringMatching(/DNS rebinding/),
      param: null,
    });
  });
});

describe("/v1 with WADDLE_TOKEN", () => {
  const token = "openai-test-token-0123456789";
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startTestServer({ token });
  });
  afterAll(() => guarded.stop());

  it("takes the token as the API key, and answers 401 without it", async () => {
    const wrong = new OpenAI({ baseURL: `${guarded.url}/v1`, apiKey: "not-the-token" });
    const error = await wrong.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: "invalid_api_key" });
    const right = new OpenAI({ baseURL: `${guarded.url}/v1`, apiKey: token });
    const completion = await right.chat.completions.create({
      model: "support-triage",
      messages: [{ role: "user", content: "My invoice shows a duplicate charge" }],
    });
    expect(completion.choices[0]!.message.content).toMatch(/Duplicate billing/);
  });
});
