import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixtureReply } from "./openai-fixture-replies.js";
import { startOpenAiFixtureServer, type OpenAiFixtureServer } from "./openai-fixture-server.js";

let fixture: OpenAiFixtureServer;
beforeEach(async () => {
  fixture = await startOpenAiFixtureServer({ models: ["model-a", "model-b"] });
});
afterEach(async () => {
  await fixture.close();
});

const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(`${fixture.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ model: "model-a", messages: [{ role: "user", content: "hi" }], ...body }),
  });

function dataLines(text: string): string[] {
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => block.slice("data: ".length));
}

describe("startOpenAiFixtureServer", () => {
  it("binds 127.0.0.1 on a free port and lists its models", async () => {
    expect(fixture.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await fetch(`${fixture.baseURL}/models`);
    const body = (await response.json()) as { object: string; data: { id: string }[] };
    expect(body.object).toBe("list");
    expect(body.data.map((model) => model.id)).toEqual(["model-a", "model-b"]);
  });

  it("streams SSE deltas, reasoning first, then finish, usage and [DONE]", async () => {
    fixture.enqueue(fixtureReply.text("hello world", { reasoning: "think", chunkSize: 4 }));
    const response = await chat({ stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const lines = dataLines(await response.text());
    expect(lines.at(-1)).toBe("[DONE]");
    const chunks = lines
      .slice(0, -1)
      .map((line) => JSON.parse(line) as { choices: { delta: Record<string, string> }[] });
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
    expect(deltas.map((delta) => delta.reasoning_content ?? "").join("")).toBe("think");
    expect(deltas.map((delta) => delta.content ?? "").join("")).toBe("hello world");
    expect(deltas.filter((delta) => delta.content).length).toBe(3);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { completion_tokens: 5, prompt_tokens: expect.any(Number) },
    });
  });

  it("leaves the usage block out of a stream unless include_usage is asked", async () => {
    fixture.enqueue(fixtureReply.text("hi"));
    const lines = dataLines(await (await chat({ stream: true })).text());
    expect(lines.some((line) => line.includes('"usage"'))).toBe(false);
  });

  it("answers a whole completion when not streaming", async () => {
    fixture.enqueue(
      fixtureReply.text("whole", {
        reasoning: "r",
        reasoningField: "reasoning",
        usage: { prompt_tokens: 3, completion_tokens: 4, reasoning_tokens: 1 },
      }),
    );
    const body = (await (await chat({})).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "model-a",
      choices: [{ message: { role: "assistant", content: "whole", reasoning: "r" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 3, completion_tokens: 4, completion_tokens_details: { reasoning_tokens: 1 } },
    });
  });

  it("refuses configured parameters with OpenAI's 400 without using a scripted reply", async () => {
    fixture.refusedParams.add("reasoning_effort");
    fixture.enqueue(fixtureReply.text("kept"));
    const response = await chat({ reasoning_effort: "low" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
        type: "invalid_request_error",
        param: "reasoning_effort",
        code: "unsupported_parameter",
      },
    });
    expect(fixture.pending).toBe(1);
  });

  it("sends a 429 with retry-after headers", async () => {
    fixture.enqueue(fixtureReply.rateLimited({ retryAfter: 3, retryAfterMs: 2500 }));
    const response = await chat({});
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(response.headers.get("retry-after-ms")).toBe("2500");
  });

  it("records requests, and says so when the script is used up", async () => {
    const response = await chat({ stream: false }, { authorization: "Bearer k" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      "no scripted reply",
    );
    const [request] = fixture.requests;
    await request?.settled;
    expect(request).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      status: 400,
      finished: true,
      closedEarly: false,
    });
    expect(request?.headers.authorization).toBe("Bearer k");
    expect(request?.body).toMatchObject({ model: "model-a", stream: false });
  });

  it("uses the fallback when one is given", async () => {
    const withFallback = await startOpenAiFixtureServer({
      fallback: (request) => fixtureReply.text(`#${request.index}`),
    });
    const response = await fetch(`${withFallback.baseURL}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [] }),
    });
    await withFallback.close();
    expect(
      ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message
        .content,
    ).toBe("#0");
  });

  it("answers GET /models with a 404 when told not to list models", async () => {
    const unlisted = await startOpenAiFixtureServer({ listModels: false });
    const response = await fetch(`${unlisted.baseURL}/models`);
    await unlisted.close();
    expect(response.status).toBe(404);
  });

  it("requires the API key when one is configured", async () => {
    const guarded = await startOpenAiFixtureServer({ apiKey: "sk-right" });
    const response = await fetch(`${guarded.baseURL}/models`, {
      headers: { authorization: "Bearer sk-wrong" },
    });
    await guarded.close();
    expect(response.status).toBe(401);
  });

  it("cuts a stream off mid-answer without a finish reason or [DONE]", async () => {
    fixture.enqueue(
      fixtureReply.cutOff("abcdefghijklmnop", 2, { chunkSize: 4, cutOff: { afterChunks: 2, mode: "end" } }),
    );
    const text = await (await chat({ stream: true })).text();
    expect(text).not.toContain("[DONE]");
    expect(text).not.toContain('"finish_reason":"stop"');
    expect(text).toContain('"content":"efgh"');
    expect(text).not.toContain("ijkl");
  });
});
