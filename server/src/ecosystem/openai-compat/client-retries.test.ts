import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import {
  fixtureReply,
  startOpenAiFixtureServer,
  type FixtureRequest,
  type OpenAiFixtureServer,
} from "@waddle/planner/testing";
import { AgentSpec } from "@waddle/protocol";
import { generateText } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";

// A run that fails after a tool with side effects ran must not be run again by a client's retry: each
// client below is used at its default retry settings (openai-node 2, the AI SDK 2, LangChain JS 6), and a
// counting tool says how often the agent really ran.

let fixture: OpenAiFixtureServer;
let server: TestServer;
let counter: Server;
let charges = 0;
let chargeDelayMs = 0;
/** What the agent's model does once the tool has answered: fail the run, or answer. */
let afterTool: "fail" | "answer" = "fail";

const sawObservation = (request: FixtureRequest) => JSON.stringify(request.body).includes("charged");

function agent(id: string, sideEffects: "external" | "read", chargeUrl: string, llmUrl: string) {
  return AgentSpec.parse({
    version: 1,
    id,
    name: id,
    llm: { provider: "openai", model: "fixture-model", baseUrl: llmUrl },
    tools: [
      {
        name: "charge",
        desc: "Charges the card",
        sideEffects,
        argsSchema: { type: "object", properties: {} },
        impl: { kind: "http", method: "POST", url: chargeUrl },
      },
    ],
  });
}

beforeAll(async () => {
  counter = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      charges += 1;
      setTimeout(() => {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ charged: true, charge: charges }));
      }, chargeDelayMs);
    });
  });
  await new Promise<void>((resolve) => counter.listen(0, "127.0.0.1", resolve));
  const chargeUrl = `http://127.0.0.1:${(counter.address() as AddressInfo).port}/charge`;
  fixture = await startOpenAiFixtureServer({
    fallback: (request) => {
      if (!sawObservation(request)) return fixtureReply.json({ next_node: "charge", args: {} });
      return afterTool === "answer"
        ? fixtureReply.finalAnswer("Charged once.")
        : { kind: "http_error", status: 401, message: "Incorrect API key", type: "invalid_request_error" };
    },
  });
  server = await startTestServer({
    env: { OPENAI_API_KEY: "sk-fixture-key-0123456789" },
    llmAllow: [new URL(fixture.baseURL).origin],
    httpAllow: ["127.0.0.1"],
  });
  for (const spec of [
    agent("charger", "external", chargeUrl, fixture.baseURL),
    agent("looker", "read", chargeUrl, fixture.baseURL),
  ]) {
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
  }
});
afterAll(async () => {
  await server.stop();
  await fixture.close();
  await new Promise((resolve) => counter.close(resolve));
});
beforeEach(() => {
  charges = 0;
  chargeDelayMs = 0;
  afterTool = "fail";
});

const baseURL = () => `${server.url}/v1`;
const runsOf = async (agentId: string) => (await server.store.listRuns({ agentId })).length;

describe("a run that failed after a tool with side effects", () => {
  it("is not run again by openai-node", async () => {
    const runs = await runsOf("charger");
    const openai = new OpenAI({ baseURL: baseURL(), apiKey: "unused" });
    const error = await openai.chat.completions
      .create({ model: "charger", messages: [{ role: "user", content: "Charge my card" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.code).toBe("run_failed_after_side_effects");
    expect(apiError.message).toMatch(/charge \(external\)/);
    expect(charges).toBe(1);
    expect(await runsOf("charger")).toBe(runs + 1);
  });

  it("is not run again by the AI SDK", async () => {
    const runs = await runsOf("charger");
    const provider = createOpenAI({ baseURL: baseURL(), apiKey: "unused" });
    await expect(generateText({ model: provider.chat("charger"), prompt: "Charge my card" })).rejects.toThrow(
      /charge \(external\)/,
    );
    expect(charges).toBe(1);
    expect(await runsOf("charger")).toBe(runs + 1);
  });

  it("is not run again by LangChain JS", async () => {
    const runs = await runsOf("charger");
    const model = new ChatOpenAI({
      model: "charger",
      apiKey: "unused",
      configuration: { baseURL: baseURL() },
    });
    await expect(model.invoke("Charge my card")).rejects.toThrow(/charge \(external\)/);
    expect(charges).toBe(1);
    expect(await runsOf("charger")).toBe(runs + 1);
  });

  it("stays a server error that is not to be retried when only read tools ran", async () => {
    const answer = await fetch(`${baseURL()}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "looker", messages: [{ role: "user", content: "Look it up" }] }),
    });
    expect(answer.status).toBe(500);
    expect(answer.headers.get("x-should-retry")).toBe("false");
    expect(charges).toBe(1);
  });
});

describe("a request sent again with its Idempotency-Key", () => {
  it("answers from the first run when openai-node retries after a timeout", async () => {
    afterTool = "answer";
    chargeDelayMs = 800;
    const runs = await runsOf("charger");
    const openai = new OpenAI({ baseURL: baseURL(), apiKey: "unused", timeout: 500 });
    const completion = await openai.chat.completions.create(
      { model: "charger", messages: [{ role: "user", content: "Charge my card" }] },
      { headers: { "Idempotency-Key": `timeout-${Date.now()}` } },
    );
    expect(completion.choices[0]?.message.content).toBe("Charged once.");
    expect(charges).toBe(1);
    expect(await runsOf("charger")).toBe(runs + 1);
  });

  it("answers from the first run with the AI SDK's and LangChain's own retries", async () => {
    afterTool = "answer";
    const key = `sdk-${Date.now()}`;
    const provider = createOpenAI({
      baseURL: baseURL(),
      apiKey: "unused",
      headers: { "Idempotency-Key": key },
    });
    const first = await generateText({ model: provider.chat("charger"), prompt: "Charge my card" });
    const again = await generateText({ model: provider.chat("charger"), prompt: "Charge my card" });
    expect([first.text, again.text]).toEqual(["Charged once.", "Charged once."]);
    expect(first.response.id).toBe(again.response.id);
    const model = new ChatOpenAI({
      model: "charger",
      apiKey: "unused",
      configuration: { baseURL: baseURL(), defaultHeaders: { "Idempotency-Key": `lc-${key}` } },
    });
    const [one, two] = [await model.invoke("Charge my card"), await model.invoke("Charge my card")];
    expect(one.id).toBe(two.id);
    expect(charges).toBe(2); // one run per key
  });

  it("answers a retry after the client went away mid-run from that run, and refuses another body", async () => {
    afterTool = "answer";
    chargeDelayMs = 300;
    const key = `gone-${Date.now()}`;
    const send = (content: string, signal?: AbortSignal) =>
      fetch(`${baseURL()}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ model: "charger", messages: [{ role: "user", content }] }),
        ...(signal ? { signal } : {}),
      });
    const controller = new AbortController();
    const first = send("Charge my card", controller.signal).catch(() => undefined);
    while (charges === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await first;
    const again = await send("Charge my card");
    expect(again.status).toBe(200);
    const body = (await again.json()) as { waddle: { runId: string; status: string } };
    expect(body.waddle.status).toBe("finished");
    expect(charges).toBe(1);
    const reused = await send("Charge another card");
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as { error: { code: string } }).error.code).toBe("idempotency_key_reused");
    expect(charges).toBe(1);
  });

  it("runs concurrent requests with one key once", async () => {
    afterTool = "answer";
    chargeDelayMs = 100;
    const key = `race-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${baseURL()}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": key },
          body: JSON.stringify({ model: "charger", messages: [{ role: "user", content: "Charge" }] }),
        }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as { id: string } })),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(charges).toBe(1);
  });
});
