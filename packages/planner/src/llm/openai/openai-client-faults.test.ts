import { LlmConfig, type LlmConfigInput } from "@waddle/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isLlmError, type LlmError } from "../../errors/llm-error.js";
import { OpenAiClient, type OpenAiClientOptions } from "./openai-client.js";
import { ParamDropMemory } from "./param-drop-memory.js";
import { fixtureReply } from "../../testing/openai-fixture-replies.js";
import { startOpenAiFixtureServer, type OpenAiFixtureServer } from "../../testing/openai-fixture-server.js";

const messages = [{ role: "user" as const, content: "Plan the next step." }];
const action = {
  next_node: "final_response",
  args: { answer: "A fairly long answer that streams in many small pieces." },
};
const answerText = JSON.stringify(action);

let fixture: OpenAiFixtureServer;
let sleeps: number[];

beforeEach(async () => {
  fixture = await startOpenAiFixtureServer();
  sleeps = [];
});
afterEach(async () => {
  await fixture.close();
});

function createClient(config: Partial<LlmConfigInput> = {}, options: Partial<OpenAiClientOptions> = {}) {
  return new OpenAiClient({
    config: LlmConfig.parse({
      provider: "openai",
      model: "deepseek-reasoner",
      baseUrl: fixture.baseURL,
      ...config,
    }),
    env: { OPENAI_API_KEY: "sk-fixture" },
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

const bodies = () => fixture.completionRequests.map((request) => request.body as Record<string, unknown>);

describe("OpenAiClient: retries", () => {
  it.each([
    ["seconds", { retryAfter: 2 }, 2000],
    ["milliseconds", { retryAfterMs: 750 }, 750],
  ])("retries a 429 after retry-after in %s", async (_unit, header, expected) => {
    fixture.enqueue(fixtureReply.rateLimited(header), fixtureReply.json(action));
    const result = await createClient().complete({ messages, stream: true });
    expect(result.content).toBe(answerText);
    expect(sleeps).toEqual([expected]);
    expect(fixture.completionRequests.map((request) => request.status)).toEqual([429, 200]);
  });

  it("reads retry-after as an HTTP date", async () => {
    const inAMinute = new Date(Date.now() + 30_000).toUTCString();
    fixture.enqueue(fixtureReply.rateLimited({ retryAfter: inAMinute }), fixtureReply.json(action));
    await createClient().complete({ messages });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(25_000);
    expect(sleeps[0]).toBeLessThanOrEqual(30_000);
  });

  it("gives up on a 429 with code rate_limited when retries run out", async () => {
    fixture.enqueue(fixtureReply.rateLimited({ retryAfter: 1 }), fixtureReply.rateLimited({ retryAfter: 1 }));
    const error = await rejection(createClient({}, { maxRetries: 1 }).complete({ messages }));
    expect(error.code).toBe("rate_limited");
    expect(error.details).toMatchObject({ status: 429, retryAfterMs: 1000, attempts: 2 });
  });

  it("backs off exponentially on 5xx and a dropped connection", async () => {
    fixture.enqueue(fixtureReply.serverError(503), fixtureReply.dropConnection(), fixtureReply.json(action));
    const result = await createClient({}, { backoff: { baseMs: 100, maxMs: 1000 } }).complete({ messages });
    expect(result.content).toBe(answerText);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(75);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(150);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
  });

  it("does not retry a plain 400", async () => {
    fixture.enqueue(fixtureReply.serverError(400, "messages must not be empty"));
    const error = await rejection(createClient().complete({ messages }));
    expect(error.code).toBe("http_error");
    expect(error.message).toContain("messages must not be empty");
    expect(fixture.completionRequests).toHaveLength(1);
  });

  it("times out a slow first token, and retries it", async () => {
    fixture.enqueue(fixtureReply.slowFirstToken(answerText, 2_000), fixtureReply.json(action));
    fixture.enqueue(fixtureReply.slowFirstToken(answerText, 2_000));
    const result = await createClient({ timeoutMs: 100 }).complete({ messages, stream: true });
    expect(result.content).toBe(answerText);
    const error = await rejection(
      createClient({ timeoutMs: 100 }, { maxRetries: 0 }).complete({ messages, stream: true }),
    );
    expect(error.code).toBe("timeout");
  });
});

describe("OpenAiClient: refused parameters", () => {
  it("sends the request once more without a refused reasoning_effort, and remembers it for the model", async () => {
    fixture.refusedParams.add("reasoning_effort");
    for (let index = 0; index < 4; index += 1) fixture.enqueue(fixtureReply.json(action));
    const memory = new ParamDropMemory();
    const client = createClient({ reasoningEffort: "low" }, { paramMemory: memory });
    await client.complete({ messages, stream: true });
    await client.complete({ messages, stream: true });
    expect(bodies().map((body) => body.reasoning_effort)).toEqual(["low", undefined, undefined]);
    expect(fixture.completionRequests.map((request) => request.status)).toEqual([400, 200, 200]);
    expect(sleeps).toEqual([]);
    // Another client of the same (endpoint, model) knows too; another model still gets the parameter.
    await createClient({ reasoningEffort: "low" }, { paramMemory: memory }).complete({ messages });
    fixture.refusedParams.clear();
    await createClient({ model: "deepseek-chat", reasoningEffort: "low" }, { paramMemory: memory }).complete({
      messages,
    });
    expect(
      bodies()
        .slice(3)
        .map((body) => body.reasoning_effort),
    ).toEqual([undefined, "low"]);
  });

  it("follows OpenAI's hint from max_tokens to max_completion_tokens", async () => {
    fixture.enqueue(
      {
        kind: "http_error",
        status: 400,
        message:
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        param: "max_tokens",
      },
      fixtureReply.json(action),
    );
    await createClient({ maxTokens: 512 }).complete({ messages });
    expect(bodies()[1]).toMatchObject({ max_completion_tokens: 512 });
    expect(bodies()[1]).not.toHaveProperty("max_tokens");
  });

  it("falls back from json_schema to json_object", async () => {
    fixture.enqueue(
      fixtureReply.serverError(400, "response_format of type 'json_schema' is not supported by this model"),
      fixtureReply.json(action),
    );
    await createClient({ responseFormat: "json_schema" }).complete({ messages });
    expect(bodies()[1]?.response_format).toEqual({ type: "json_object" });
  });

  it("fails with http_error when a refusal names nothing left to drop", async () => {
    fixture.refusedParams.add("temperature");
    fixture.enqueue(fixtureReply.refuseParam("temperature"));
    const error = await rejection(createClient().complete({ messages }));
    expect(error.code).toBe("http_error");
    expect(bodies().map((body) => body.temperature)).toEqual([0, undefined]);
  });
});

describe("OpenAiClient: cancellation and broken streams", () => {
  it("cancels mid-stream: rejects with cancelled and closes the connection", async () => {
    fixture.enqueue(fixtureReply.json(action, { chunkSize: 2, chunkDelayMs: 40 }));
    const controller = new AbortController();
    let abortedAt = 0;
    const started = Date.now();
    const promise = createClient().complete({
      messages,
      stream: true,
      signal: controller.signal,
      onChunk: (chunk) => {
        if (chunk.content !== undefined && abortedAt === 0) {
          abortedAt = Date.now();
          controller.abort();
        }
      },
    });
    const error = await rejection(promise);
    const stoppedAfterMs = Date.now() - abortedAt;
    expect(error.code).toBe("cancelled");
    const [request] = fixture.completionRequests;
    await request?.settled;
    expect(request?.closedEarly).toBe(true);
    // A sanity bound, not a timing assertion: the stream would otherwise run for ~1.5 s.
    expect(stoppedAfterMs).toBeLessThan(1_000);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("cancels before the request when the signal is already aborted", async () => {
    const error = await rejection(createClient().complete({ messages, signal: AbortSignal.abort() }));
    expect(error.code).toBe("cancelled");
    expect(fixture.completionRequests).toHaveLength(0);
  });

  it("cancels a retry wait", async () => {
    fixture.enqueue(fixtureReply.rateLimited({ retryAfter: 30 }));
    const controller = new AbortController();
    const client = createClient({}, { sleep: undefined });
    const promise = client.complete({ messages, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await rejection(promise)).code).toBe("cancelled");
  });

  it.each(["destroy", "end"] as const)(
    "surfaces a stream cut off mid-answer (%s) as stream_interrupted with the partial content",
    async (mode) => {
      fixture.enqueue(fixtureReply.cutOff(answerText, 3, { chunkSize: 5, cutOff: { afterChunks: 3, mode } }));
      const received: string[] = [];
      const error = await rejection(
        createClient().complete({
          messages,
          stream: true,
          onChunk: (chunk) => chunk.content && received.push(chunk.content),
        }),
      );
      expect(error.code, error.message).toBe("stream_interrupted");
      expect(error.details?.partialContent).toBe(answerText.slice(0, 15));
      expect(received.join("")).toBe(answerText.slice(0, 15));
      expect(fixture.completionRequests).toHaveLength(1);
    },
  );

  it("retries a stream cut off before anything reached the planner", async () => {
    fixture.enqueue(fixtureReply.cutOff(answerText, 0), fixtureReply.json(action));
    const result = await createClient().complete({ messages, stream: true });
    expect(result.content).toBe(answerText);
    expect(fixture.completionRequests).toHaveLength(2);
  });

  it("lets an error thrown by onChunk through unchanged", async () => {
    fixture.enqueue(fixtureReply.json(action));
    const failure = new Error("sink full");
    const promise = createClient().complete({
      messages,
      stream: true,
      onChunk: () => {
        throw failure;
      },
    });
    await expect(promise).rejects.toBe(failure);
  });
});
