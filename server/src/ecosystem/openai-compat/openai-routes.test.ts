import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec } from "@waddle/protocol";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";
import { waitForEvent, waitForRun } from "../../testing/wait-for-run.js";

// Extension fields the openai package does not type.
type WaddleField = { waddle: { runId: string; status: string; pause?: { resumeToken: string } } };
type ReasoningMessage = { reasoning_content?: string };

let fixture: OpenAiFixtureServer;
let server: TestServer;
let openai: OpenAI;

const agent = (id: string, extra: Record<string, unknown> = {}) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: id,
    tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
    ...extra,
  });

beforeAll(async () => {
  fixture = await startOpenAiFixtureServer();
  server = await startTestServer({
    env: { OPENAI_API_KEY: "sk-fixture-key-0123456789" },
    llmAllow: [new URL(fixture.baseURL).origin],
  });
  const llm = { provider: "openai", model: "fixture-model", baseUrl: fixture.baseURL };
  for (const spec of [
    agent("thinker", { llm, description: "Thinks aloud, then answers." }),
    agent("slow", {
      tools: [{ name: "wait", desc: "Waits", impl: { kind: "mock", output: { ok: 1 }, latencyMs: 60_000 } }],
    }),
  ]) {
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
  }
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused-without-a-token" });
});
afterAll(async () => {
  await server.stop();
  await fixture.close();
});

describe("GET /v1/models", () => {
  it("lists the agents as models", async () => {
    const models = [];
    for await (const model of openai.models.list()) models.push(model);
    expect(models).toEqual(
      expect.arrayContaining([
        { id: "support-triage", object: "model", created: expect.any(Number), owned_by: "waddle" },
        expect.objectContaining({ id: "thinker" }),
      ]),
    );
    expect(await openai.models.retrieve("thinker")).toMatchObject({ id: "thinker", owned_by: "waddle" });
  });
});

describe("POST /v1/chat/completions", () => {
  const query = "My invoice shows a duplicate charge";

  it("answers whole, with usage, and records the run like any other", async () => {
    const completion = await openai.chat.completions.create({
      model: "support-triage",
      messages: [{ role: "user", content: query }],
    });
    const { runId } = (completion as unknown as WaddleField).waddle;
    expect(completion).toMatchObject({
      object: "chat.completion",
      model: "support-triage",
      id: `chatcmpl-${runId}`,
    });
    expect(completion.choices[0]).toMatchObject({ finish_reason: "stop", message: { role: "assistant" } });
    expect(completion.choices[0]!.message.content).toMatch(/Duplicate billing charges are reversed/);
    const run = (await server.request(`/api/runs/${runId}`)).body;
    expect(run).toMatchObject({ status: "finished", query, agentId: "support-triage" });
    expect(completion.usage).toEqual({
      prompt_tokens: run.usage.promptTokens,
      completion_tokens: run.usage.completionTokens,
      total_tokens: run.usage.promptTokens + run.usage.completionTokens,
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
    const listed = await server.request("/api/runs?agentId=support-triage");
    expect(listed.body.runs.map((entry: { id: string }) => entry.id)).toContain(runId);
    const events = (await server.request(`/api/runs/${runId}/events`)).body.events;
    expect(events.at(-1).type).toBe("run_finished");
  });

  it("streams chunks as the run goes: answer, thinking as reasoning_content, usage, [DONE]", async () => {
    const stream = await openai.chat.completions.create({
      model: "support-triage",
      messages: [{ role: "user", content: query }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    const reasoning = chunks
      .map((chunk) => (chunk.choices[0]?.delta as ReasoningMessage | undefined)?.reasoning_content ?? "")
      .join("");
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: "assistant", content: "" });
    expect(reasoning).toMatch(/^Offline planner: Starting with triage/);
    const finish = chunks.find((chunk) => chunk.choices[0]?.finish_reason);
    expect(finish?.choices[0]?.finish_reason).toBe("stop");
    const { runId } = (finish as unknown as WaddleField).waddle;
    const run = (await server.request(`/api/runs/${runId}`)).body;
    expect(content).toBe(run.result.payload.answer);
    // More than one content delta: the answer was streamed, not sent whole at the end.
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBeGreaterThan(2);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: run.usage.promptTokens } });
  });

  it("streams the agent's LLM thinking as reasoning_content and passes earlier messages as context", async () => {
    fixture.enqueue(
      fixtureReply.finalAnswer("Forty-two, as the records show.", {
        reasoning: "The user asks again; the records say 42.",
        chunkSize: 5,
        usage: { prompt_tokens: 120, completion_tokens: 30, reasoning_tokens: 12 },
      }),
    );
    const stream = await openai.chat.completions.create({
      model: "thinker",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What is the answer?" },
        { role: "assistant", content: "Let me look." },
        { role: "user", content: "And now?" },
      ],
      stream: true,
    });
    let content = "";
    let reasoning = "";
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? "";
      reasoning += (chunk.choices[0]?.delta as ReasoningMessage | undefined)?.reasoning_content ?? "";
      expect(chunk.usage).toBeUndefined();
    }
    expect(content).toBe("Forty-two, as the records show.");
    expect(reasoning).toBe("The user asks again; the records say 42.");
    const sent = JSON.stringify(fixture.completionRequests.at(-1)!.body);
    expect(sent).toContain("And now?");
    expect(sent).toContain('\\"conversation\\":[{\\"role\\":\\"system\\",\\"content\\":\\"Be brief.\\"}');
    expect(sent).toContain("Let me look.");
    const [run] = await server.store.listRuns({ agentId: "thinker", limit: 1 });
    expect(run).toMatchObject({ query: "And now?", status: "finished" });
  });

  it("answers whole with the LLM's reasoning and usage", async () => {
    fixture.enqueue(
      fixtureReply.finalAnswer("Seven.", {
        reasoning: "Count them.",
        usage: { prompt_tokens: 200, completion_tokens: 10, reasoning_tokens: 4 },
      }),
    );
    const completion = await openai.chat.completions.create({
      model: "thinker",
      messages: [{ role: "user", content: "How many?" }],
    });
    const message = completion.choices[0]!.message as (typeof completion.choices)[0]["message"] &
      ReasoningMessage;
    expect(message).toMatchObject({ content: "Seven.", reasoning_content: "Count them." });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 200,
      completion_tokens: 10,
      completion_tokens_details: { reasoning_tokens: 4 },
    });
  });

  it("answers a paused run with the pause and how to resume it, whole and streamed", async () => {
    const messages = [{ role: "user" as const, content: "Email Dana the report" }];
    const completion = await openai.chat.completions.create({ model: "email-approval", messages });
    const { waddle } = completion as unknown as WaddleField;
    expect(waddle).toMatchObject({ status: "paused", pause: { resumeToken: expect.any(String) } });
    expect(completion.choices[0]!.finish_reason).toBe("stop");
    const content = completion.choices[0]!.message.content!;
    expect(content).toMatch(/paused \(approval_required\): it waits for a person to approve, reject or edit/);
    expect(content).toContain(`POST ${server.url}/api/runs/${waddle.runId}/resume`);
    expect(content).toContain(`npx waddle resume ${waddle.runId}`);
    expect((await server.store.getRun(waddle.runId))?.status).toBe("paused");

    const stream = await openai.chat.completions.create({ model: "email-approval", messages, stream: true });
    let streamed = "";
    let last;
    for await (const chunk of stream) {
      streamed += chunk.choices[0]?.delta.content ?? "";
      last = chunk;
    }
    expect(streamed).toMatch(/paused \(approval_required\)/);
    expect(last).toMatchObject({ choices: [{ finish_reason: "stop" }], waddle: { status: "paused" } });
  });

  it("cancels the run when the client goes away", async () => {
    const { data: stream, response } = await openai.chat.completions
      .create({ model: "slow", messages: [{ role: "user", content: "take your time" }], stream: true })
      .withResponse();
    const runId = response.headers.get("x-waddle-run-id")!;
    expect(runId).toMatch(/^run_/);
    await waitForEvent(server, runId, (event) => event.type === "tool_start");
    stream.controller.abort();
    expect((await waitForRun(server, runId)).status).toBe("cancelled");
  });

  it("cancels a whole answer's run when the client goes away", async () => {
    const controller = new AbortController();
    const call = openai.chat.completions.create(
      { model: "slow", messages: [{ role: "user", content: "whole, slowly" }] },
      { signal: controller.signal, maxRetries: 0 },
    );
    const rejected = expect(call).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    let runs = await server.store.listRuns({ agentId: "slow" });
    while (!runs.some((run) => run.query === "whole, slowly")) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      runs = await server.store.listRuns({ agentId: "slow" });
    }
    const runId = runs.find((run) => run.query === "whole, slowly")!.id;
    await waitForEvent(server, runId, (event) => event.type === "tool_start");
    controller.abort();
    await rejected;
    expect((await waitForRun(server, runId)).status).toBe("cancelled");
  });

  it("ends a stream with data: [DONE] on the wire", async () => {
    const answer = await server.request("/v1/chat/completions", {
      method: "POST",
      json: { model: "support-triage", messages: [{ role: "user", content: query }], stream: true },
    });
    expect(answer.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(answer.text.startsWith("data: {")).toBe(true);
    expect(answer.text.endsWith("data: [DONE]\n\n")).toBe(true);
  });

  it("answers a failed run with a server error that clients do not retry", async () => {
    fixture.enqueue(fixtureReply.refuseParam("temperature"));
    const before = (await server.store.listRuns({ agentId: "thinker" })).length;
    const error = await openai.chat.completions
      .create({ model: "thinker", messages: [{ role: "user", content: "fail" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toMatch(/failed/);
    expect((error as InstanceType<typeof OpenAI.APIError>).type).toBe("server_error");
    expect((await server.store.listRuns({ agentId: "thinker" })).length).toBe(before + 1);
  });

  it("refuses parameters an agent cannot honour, naming them, and runs nothing", async () => {
    const before = (await server.store.listRuns({ agentId: "thinker" })).length;
    const messages = [{ role: "user" as const, content: "hi" }];
    const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: {} } }];
    const refusals = [
      { tools, tool_choice: "required" as const, param: "tool_choice" },
      {
        tools,
        tool_choice: { type: "function" as const, function: { name: "get_weather" } },
        param: "tool_choice",
      },
    ];
    for (const { param, ...extra } of refusals) {
      const error = await openai.chat.completions
        .create({ model: "thinker", messages, ...extra })
        .catch((caught: unknown) => caught);
      expect(error, param).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.APIError>).param).toBe(param);
      expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("unsupported_parameter");
    }
    expect((await server.store.listRuns({ agentId: "thinker" })).length).toBe(before);
  });

  it("takes tool_choice auto and none, which say what the agent does anyway", async () => {
    fixture.enqueue(fixtureReply.finalAnswer("Fine."));
    const completion = await openai.chat.completions.create({
      model: "thinker",
      messages: [{ role: "user", content: "hi" }],
      tool_choice: "auto",
    });
    expect(completion.choices[0]?.message.content).toBe("Fine.");
  });
});
