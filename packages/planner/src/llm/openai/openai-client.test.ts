import { LlmConfig, type LlmConfigInput } from "@waddle/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LlmChunk } from "../llm-client.js";
import { isLlmError, type LlmError } from "../../errors/llm-error.js";
import { OpenAiClient, type OpenAiClientOptions } from "./openai-client.js";
import { ParamDropMemory } from "./param-drop-memory.js";
import { fixtureReply } from "../../testing/openai-fixture-replies.js";
import { startOpenAiFixtureServer, type OpenAiFixtureServer } from "../../testing/openai-fixture-server.js";

const KEY = "sk-test-0123456789abcdefSECRET";
const messages = [
  { role: "system" as const, content: "You plan. Reply with one JSON action." },
  { role: "user" as const, content: "What is the capital of France?" },
];
const action = { next_node: "final_response", args: { answer: "Paris is the capital of France." } };

let fixture: OpenAiFixtureServer;
let sleeps: number[];

beforeEach(async () => {
  fixture = await startOpenAiFixtureServer({ apiKey: KEY });
  sleeps = [];
});
afterEach(async () => {
  await fixture.close();
});

function createClient(config: Partial<LlmConfigInput> = {}, options: Partial<OpenAiClientOptions> = {}) {
  return new OpenAiClient({
    config: LlmConfig.parse({
      provider: "openai",
      model: "gpt-4o-mini",
      baseUrl: fixture.baseURL,
      ...config,
    }),
    env: { OPENAI_API_KEY: KEY },
    paramMemory: new ParamDropMemory(),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    ...options,
  });
}

async function rejection(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isLlmError(error)) throw new Error(`expected an LlmError, got ${String(error)}`);
  return error;
}

describe("OpenAiClient: requests and replies", () => {
  it("asks for JSON mode and returns the content, usage and cost", async () => {
    fixture.enqueue(fixtureReply.json(action, { usage: { prompt_tokens: 1000, completion_tokens: 200 } }));
    const result = await createClient().complete({ messages, responseFormat: "json_object" });
    expect(JSON.parse(result.content)).toEqual(action);
    expect(result.usage).toEqual({ promptTokens: 1000, completionTokens: 200 });
    expect(result.costUsd).toBeCloseTo((1000 * 0.15 + 200 * 0.6) / 1e6, 12);
    expect(result.model).toBe("gpt-4o-mini");
    const body = fixture.completionRequests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: "gpt-4o-mini", stream: false, temperature: 0, messages });
    expect(body.response_format).toEqual({ type: "json_object" });
  });

  it("sends the two-field planner_action schema for json_schema, and nothing for none", async () => {
    fixture.enqueue(fixtureReply.json(action), fixtureReply.json(action));
    const client = createClient({ responseFormat: "json_schema" });
    await client.complete({ messages });
    await client.complete({ messages, responseFormat: "none" });
    const [schemaBody, plainBody] = fixture.completionRequests.map(
      (request) => request.body as Record<string, unknown>,
    );
    expect(schemaBody?.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "planner_action", schema: { required: ["next_node", "args"] } },
    });
    expect(plainBody).not.toHaveProperty("response_format");
  });

  it("streams the answer in several deltas before the reply ends, with usage", async () => {
    fixture.enqueue(fixtureReply.json(action, { chunkSize: 6, chunkDelayMs: 5 }));
    const seen: { chunk: LlmChunk; settled: boolean }[] = [];
    let settled = false;
    const promise = createClient().complete({
      messages,
      stream: true,
      responseFormat: "json_object",
      onChunk: (chunk) => seen.push({ chunk, settled }),
    });
    const result = await promise.finally(() => (settled = true));
    const contentDeltas = seen.filter((entry) => entry.chunk.content !== undefined);
    expect(contentDeltas.length).toBeGreaterThan(1);
    expect(contentDeltas.every((entry) => !entry.settled)).toBe(true);
    expect(contentDeltas.map((entry) => entry.chunk.content).join("")).toBe(result.content);
    expect(JSON.parse(result.content)).toEqual(action);
    expect(result.usage?.completionTokens).toBeGreaterThan(0);
    expect(fixture.completionRequests[0]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("returns the endpoint's finish reason, streamed and not", async () => {
    fixture.enqueue(
      fixtureReply.json(action),
      fixtureReply.json(action, { finishReason: "content_filter" }),
      fixtureReply.json(action, { chunkSize: 6 }),
      fixtureReply.json(action, { chunkSize: 6, finishReason: "length" }),
    );
    const client = createClient();
    const reasons: (string | undefined)[] = [];
    for (const stream of [false, false, true, true]) {
      reasons.push((await client.complete({ messages, stream, onChunk: () => undefined })).finishReason);
    }
    expect(fixture.completionRequests.map((request) => (request.body as { stream: boolean }).stream)).toEqual(
      [false, false, true, true],
    );
    expect(reasons).toEqual(["stop", "content_filter", "stop", "length"]);
  });

  it.each(["reasoning_content", "reasoning"] as const)(
    "puts streamed %s deltas on the thinking channel",
    async (reasoningField) => {
      const reasoning = "The user asks for a capital; answer directly.";
      fixture.enqueue(fixtureReply.json(action, { reasoning, reasoningField, chunkSize: 10 }));
      const thinking: string[] = [];
      const result = await createClient().complete({
        messages,
        stream: true,
        onChunk: (chunk) => chunk.reasoning !== undefined && thinking.push(chunk.reasoning),
      });
      expect(thinking.length).toBeGreaterThan(1);
      expect(thinking.join("")).toBe(reasoning);
      expect(result.reasoning).toBe(reasoning);
      expect(result.content).not.toContain("capital; answer");
      expect(result.usage?.reasoningTokens).toBe(Math.ceil(reasoning.length / 4));
    },
  );

  it("reads message.reasoning_content of a reply that is not streamed", async () => {
    fixture.enqueue(
      fixtureReply.json(action, {
        reasoning: "Known fact.",
        usage: { prompt_tokens: 10, completion_tokens: 50, reasoning_tokens: 30 },
      }),
    );
    const result = await createClient({ model: "o4-mini" }).complete({ messages });
    expect(result.reasoning).toBe("Known fact.");
    expect(result.usage).toEqual({ promptTokens: 10, completionTokens: 50, reasoningTokens: 30 });
    expect(result.costUsd).toBeCloseTo((10 * 1.1 + 50 * 4.4) / 1e6, 12);
  });

  it("passes reasoning_effort from the call, else from the spec (never auto)", async () => {
    fixture.enqueue(fixtureReply.json(action), fixtureReply.json(action), fixtureReply.json(action));
    await createClient({ reasoningEffort: "medium" }).complete({ messages });
    await createClient({ reasoningEffort: "medium" }).complete({ messages, reasoningEffort: "high" });
    await createClient({ reasoningEffort: "auto" }).complete({ messages });
    const efforts = fixture.completionRequests.map(
      (request) => (request.body as Record<string, unknown>).reasoning_effort,
    );
    expect(efforts).toEqual(["medium", "high", undefined]);
  });

  it("prices with the spec's llm.price over the built-in table", async () => {
    fixture.enqueue(fixtureReply.json(action, { usage: { prompt_tokens: 2_000_000, completion_tokens: 0 } }));
    const client = createClient({ price: { inputPerMTok: 1, outputPerMTok: 2 } });
    expect((await client.complete({ messages })).costUsd).toBe(2);
  });

  it("returns malformed JSON content as it came: parsing and repair are the planner's job", async () => {
    fixture.enqueue(fixtureReply.malformedJson());
    const result = await createClient().complete({ messages, stream: true, responseFormat: "json_object" });
    expect(result.content).toBe('{"next_node": "final_response", "args": {"answer": "Half');
  });

  it("lists models through the same endpoint", async () => {
    const page = await fetch(`${fixture.baseURL}/models`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await page.json()) as { data: { id: string }[] }).data.map((model) => model.id)).toEqual([
      "fixture-model",
    ]);
  });
});

describe("OpenAiClient: reasoning in a leading <think> block of the content", () => {
  const reasoning = "The user asks for a capital.\nFrance's is Paris; answer directly.";

  it("streams the block on the thinking channel and only what follows as content, tags split across deltas", async () => {
    fixture.enqueue(fixtureReply.thinkTagged(reasoning, JSON.stringify(action), { chunkSize: 3 }));
    const seen: LlmChunk[] = [];
    const result = await createClient().complete({
      messages,
      stream: true,
      onChunk: (chunk) => seen.push(chunk),
    });
    const thinking = seen.flatMap((chunk) => (chunk.reasoning === undefined ? [] : [chunk.reasoning]));
    const content = seen.flatMap((chunk) => (chunk.content === undefined ? [] : [chunk.content]));
    expect(thinking.length).toBeGreaterThan(1);
    expect(thinking.join("")).toBe(reasoning);
    expect(content.join("")).toBe(JSON.stringify(action));
    expect(content.join("")).not.toContain("think>");
    // Every reasoning delta reached the caller before the first content delta.
    expect(seen.findLastIndex((chunk) => chunk.reasoning !== undefined)).toBeLessThan(
      seen.findIndex((chunk) => chunk.content !== undefined),
    );
    expect(result).toMatchObject({ reasoning, content: JSON.stringify(action) });
  });

  it("splits a reply that is not streamed the same way", async () => {
    fixture.enqueue(fixtureReply.thinkTagged(reasoning, JSON.stringify(action)));
    const result = await createClient().complete({ messages });
    expect(result.reasoning).toBe(reasoning);
    expect(JSON.parse(result.content)).toEqual(action);
  });

  it.each([true, false])(
    "leaves tags that only appear inside a JSON string alone (stream: %s)",
    async (stream) => {
      const quoting = {
        next_node: "final_response",
        args: { answer: "Models such as R1 wrap their reasoning in <think>…</think> tags." },
      };
      fixture.enqueue(fixtureReply.json(quoting, { chunkSize: 4 }));
      const result = await createClient().complete({ messages, stream });
      expect(result.reasoning).toBeUndefined();
      expect(JSON.parse(result.content)).toEqual(quoting);
    },
  );

  it("passes a reply without tags through unchanged, even one that starts with whitespace", async () => {
    const content = `\n  ${JSON.stringify(action)}`;
    fixture.enqueue(fixtureReply.text(content, { chunkSize: 1 }), fixtureReply.text(content));
    const streamed = await createClient().complete({ messages, stream: true });
    const whole = await createClient().complete({ messages });
    expect(streamed).toMatchObject({ content });
    expect(whole).toMatchObject({ content });
    expect(streamed.reasoning ?? whole.reasoning).toBeUndefined();
  });
});

describe("OpenAiClient: the API key", () => {
  it("sends the key only as the Authorization header, never in errors or the client's JSON", async () => {
    fixture.enqueue(fixtureReply.json(action));
    const client = createClient();
    await client.complete({ messages });
    const [request] = fixture.completionRequests;
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    const elsewhere = Object.entries(request?.headers ?? {}).filter(([name]) => name !== "authorization");
    expect(JSON.stringify(elsewhere)).not.toContain(KEY);
    expect(JSON.stringify(request?.body)).not.toContain(KEY);
    expect(request?.path).not.toContain(KEY);
    expect(JSON.stringify(client)).not.toContain(KEY);
  });

  it("names the variable to set when no key is found, and reads a custom apiKeyEnv", async () => {
    const config = LlmConfig.parse({ provider: "openai", model: "gpt-4o", apiKeyEnv: "MY_LLM_KEY" });
    let error: unknown;
    try {
      new OpenAiClient({ config, env: { OPENAI_API_KEY: KEY } });
    } catch (caught) {
      error = caught;
    }
    expect(isLlmError(error, "missing_api_key")).toBe(true);
    expect((error as Error).message).toContain("MY_LLM_KEY");
    fixture.enqueue(fixtureReply.json(action));
    const client = createClient({ apiKeyEnv: "MY_LLM_KEY" }, { env: { MY_LLM_KEY: KEY } });
    await expect(client.complete({ messages })).resolves.toMatchObject({ model: "gpt-4o-mini" });
  });

  it("scrubs a key the endpoint echoes back in a 401", async () => {
    const wrongKey = "sk-wrong-key-9876543210ZYX";
    const echoing = createClient(
      {},
      {
        env: { OPENAI_API_KEY: wrongKey },
        // Some endpoints quote the key they refused; the fixture does not, so this wrapper does.
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          if (response.status !== 401) return response;
          const error = {
            message: `Incorrect API key provided: ${wrongKey}.`,
            type: "invalid_request_error",
          };
          return new Response(JSON.stringify({ error }), {
            status: 401,
            headers: { "content-type": "application/json" },
          });
        },
      },
    );
    const error = await rejection(echoing.complete({ messages }));
    expect(error.code).toBe("http_error");
    expect(error.message).toContain("OPENAI_API_KEY");
    expect(error.message).toContain("Incorrect API key provided");
    expect(JSON.stringify({ ...error.toJSON(), cause: String(error.cause) })).not.toContain("9876543210");
  });

  it("reads OPENAI_BASE_URL when the spec names no baseUrl", async () => {
    fixture.enqueue(fixtureReply.json(action));
    const client = new OpenAiClient({
      config: LlmConfig.parse({ provider: "openai", model: "gpt-4o-mini" }),
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fixture.baseURL },
    });
    await client.complete({ messages });
    expect(fixture.completionRequests).toHaveLength(1);
  });
});
