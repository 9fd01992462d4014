import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import { AgentSpec } from "@waddle/protocol";
import { generateObject } from "ai";
import OpenAI from "openai";
import { zodResponseFormat, zodTextFormat } from "openai/helpers/zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";

// Structured answers on /v1 (docs/guides/structured-answers.md): the real clients' structured-output
// helpers against a Waddle agent on the offline model, each getting a parsed object.

let server: TestServer;
let openai: OpenAI;

const Weather = z.object({ city: z.string(), celsius: z.number(), summary: z.string() });

beforeAll(async () => {
  server = await startTestServer();
  const spec = AgentSpec.parse({
    version: 1,
    id: "weather",
    name: "Weather",
    tools: [
      {
        name: "weather",
        desc: "The weather in a city",
        argsSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        outSchema: { type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } } },
        impl: { kind: "mock", output: { city: "Paris", celsius: 19 } },
      },
    ],
  });
  expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused-without-a-token" });
});
afterAll(async () => {
  await server.stop();
});

describe("response_format and text.format", () => {
  it("openai-node chat.completions.parse with zodResponseFormat gets the object", async () => {
    const completion = await openai.chat.completions.parse({
      model: "weather",
      messages: [{ role: "user", content: "Weather in Paris?" }],
      response_format: zodResponseFormat(Weather, "weather"),
    });
    const parsed = completion.choices[0]?.message.parsed;
    expect(parsed).toMatchObject({ city: "Paris", celsius: 19 });
    expect(typeof parsed?.summary).toBe("string");
    const runId = (completion as unknown as { waddle: { runId: string } }).waddle.runId;
    const run = (await server.request(`/api/runs/${runId}`)).body;
    // The run record keeps the object as data beside its JSON text (what POST /api/runs callers read).
    expect(JSON.stringify(run)).toContain('"data":{"city":"Paris","celsius":19');
  });

  it("json_object gives JSON text of an object", async () => {
    const completion = await openai.chat.completions.create({
      model: "weather",
      messages: [{ role: "user", content: "Weather in Paris?" }],
      response_format: { type: "json_object" },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? "")).toEqual(expect.any(Object));
  });

  it("openai-node responses.parse with zodTextFormat gets the object", async () => {
    const response = await openai.responses.parse({
      model: "weather",
      input: "Weather in Paris?",
      text: { format: zodTextFormat(Weather, "weather") },
    });
    expect(response.output_parsed).toMatchObject({ city: "Paris", celsius: 19 });
  });

  it("the AI SDK's generateObject gets the object", async () => {
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused" });
    const { object } = await generateObject({
      model: provider.chat("weather"),
      schema: Weather,
      prompt: "Weather in Paris?",
    });
    expect(object).toMatchObject({ city: "Paris", celsius: 19 });
  });

  it("LangChain's withStructuredOutput gets the object", async () => {
    const model = new ChatOpenAI({
      model: "weather",
      apiKey: "unused",
      configuration: { baseURL: `${server.url}/v1` },
    });
    const structured = model.withStructuredOutput(Weather, { method: "jsonSchema" });
    expect(await structured.invoke("Weather in Paris?")).toMatchObject({ city: "Paris", celsius: 19 });
  });

  it("refuses a schema that is not valid JSON Schema, naming response_format or text.format", async () => {
    const messages = [{ role: "user" as const, content: "hi" }];
    const bad = { type: "object", properties: { city: { type: "strang" } } };
    const chatError = await openai.chat.completions
      .create({
        model: "weather",
        messages,
        response_format: { type: "json_schema", json_schema: { name: "bad", schema: bad } },
      })
      .catch((caught: unknown) => caught);
    expect(chatError).toBeInstanceOf(OpenAI.BadRequestError);
    expect((chatError as InstanceType<typeof OpenAI.APIError>).param).toBe("response_format");
    const responsesError = await openai.responses
      .create({
        model: "weather",
        input: "hi",
        text: { format: { type: "json_schema", name: "bad", schema: { type: "string" } } },
      })
      .catch((caught: unknown) => caught);
    expect(responsesError).toBeInstanceOf(OpenAI.BadRequestError);
    expect((responsesError as InstanceType<typeof OpenAI.APIError>).param).toBe("text.format");
  });
});
