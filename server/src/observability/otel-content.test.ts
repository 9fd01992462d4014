import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpFixtureHttpServer, type McpFixtureHttpServer } from "../testing/mcp-fixture-server.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import { parseTraceparent } from "./trace-context.js";
import { OtlpTestReceiver } from "./otlp-test-receiver.js";

const SECRET = "tok-secret-9f8e7d6c5b4a3921";
let receiver: OtlpTestReceiver;
let fixture: OpenAiFixtureServer;
let target: Server;
let targetHost: string;
const targetHeaders: Record<string, string | string[] | undefined>[] = [];
let server: TestServer;
let mcp: McpFixtureHttpServer;

beforeAll(async () => {
  receiver = new OtlpTestReceiver();
  const endpoint = await receiver.start();
  fixture = await startOpenAiFixtureServer({ apiKey: "fixture-key-0042", models: ["house-model"] });
  // The http tool's host: records the headers it gets.
  target = createServer((request, response) => {
    targetHeaders.push(request.headers);
    request.resume();
    response.writeHead(200, { "content-type": "application/json" }).end('{"status":"green"}');
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetHost = `127.0.0.1:${(target.address() as AddressInfo).port}`;
  mcp = await startMcpFixtureHttpServer();
  server = await startTestServer({
    env: {
      OPENAI_API_KEY: "fixture-key-0042",
      OPENAI_BASE_URL: fixture.baseURL,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "20",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
    },
    httpAllow: [targetHost, mcp.host],
    mcpServers: [{ name: "fixture", transport: "http", url: mcp.url, headers: {} }],
    secrets: { STATUS_TOKEN: SECRET },
  });
});
afterAll(async () => {
  await server.stop();
  await mcp.close();
  await fixture.close();
  await receiver.close();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

describe("traces of a run on a remote model, with content captured", () => {
  it("records repairs and tool errors, sends traceparent on http tools, and redacts secrets in content", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "status-desk",
      name: "Status desk",
      llm: { provider: "openai", model: "house-model" },
      tools: [
        {
          name: "fetch_status",
          desc: "Reads the service status",
          argsSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
          impl: {
            kind: "http",
            method: "GET",
            url: `http://${targetHost}/status`,
            query: { q: "{q}" },
            body: "none",
          },
          sideEffects: "read",
        },
        { name: "broken", desc: "Always fails", impl: { kind: "mock", failRate: 1, failMessage: "down" } },
      ],
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    fixture.enqueue(
      fixtureReply.text("I think I should check the status first."),
      fixtureReply.json({ next_node: "fetch_status", args: { q: "api" } }),
      fixtureReply.json({ next_node: "broken", args: {} }),
      fixtureReply.finalAnswer("All green."),
    );
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "status-desk", query: `Is the API up? My token is ${SECRET}` },
    });
    const runId = started.body.runId as string;
    const run = await waitForRun(server, runId);
    expect(run.status, JSON.stringify(run.error)).toBe("finished");
    const root = await receiver.waitFor(
      (span) =>
        span.attributes["waddle.run.id"] === runId && span.attributes["waddle.run.status"] === "finished",
    );
    const spans = receiver.trace(root.traceId);
    const events = await server.store.listEvents(runId);

    // Repairs (and any salvage) are events of the run's span.
    const repairs = events.filter((event) => event.type === "repair_attempt");
    expect(repairs.length).toBeGreaterThan(0);
    const spanEvents = root.events.map((event) => event.name);
    expect(spanEvents.filter((name) => name === "repair_attempt")).toHaveLength(repairs.length);
    const salvages = events.filter((event) => event.type === "action_salvaged");
    expect(spanEvents.filter((name) => name === "action_salvaged")).toHaveLength(salvages.length);
    const chats = spans.filter((span) => span.name === "chat house-model");
    expect(chats.map((span) => span.attributes["waddle.llm.purpose"])).toContain("repair");
    expect(chats[0]!.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);

    // The http tool sent its span's traceparent.
    const fetchSpan = spans.find((span) => span.name === "execute_tool fetch_status")!;
    expect(fetchSpan.attributes).toMatchObject({
      "gen_ai.tool.type": "extension",
      "waddle.tool.side_effects": "read",
    });
    const sent = targetHeaders.at(-1)?.traceparent;
    expect(parseTraceparent(String(sent))).toEqual({
      traceId: root.traceId,
      spanId: fetchSpan.spanId,
      flags: 1,
    });

    // A tool error sets the status.
    const broken = spans.filter((span) => span.name === "execute_tool broken");
    expect(broken.length).toBe(
      events.filter((event) => event.type === "tool_start" && event.data.tool === "broken").length,
    );
    for (const attempt of broken) expect(attempt.status.code).toBe(2);
    expect(broken.some((attempt) => typeof attempt.attributes["error.type"] === "string")).toBe(true);

    // Content is there, and the secret is not.
    const input = String(root.attributes["gen_ai.input.messages"]);
    expect(input).toContain("Is the API up?");
    expect(input).not.toContain(SECRET);
    expect(String(fetchSpan.attributes["gen_ai.tool.call.arguments"])).toContain("api");
    expect(String(fetchSpan.attributes["gen_ai.tool.call.result"])).toContain("green");
    expect(String(root.attributes["gen_ai.output.messages"])).toContain("All green.");
    expect(JSON.stringify(spans)).not.toContain(SECRET);
  });

  it("gives every chat span the endpoint's finish reasons, streamed (planning) and not (an llm tool)", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "triage-desk",
      name: "Triage desk",
      llm: { provider: "openai", model: "house-model" },
      tools: [
        {
          name: "classify",
          desc: "Classifies a report",
          argsSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
          outSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
          impl: { kind: "llm", prompt: "Classify {{args.text}}" },
        },
      ],
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const asked = fixture.requests.length;
    fixture.enqueue(
      fixtureReply.json({ next_node: "classify", args: { text: "the app crashes" } }),
      // The tool's own call: whole, at its token limit (the JSON is complete, so the tool takes it).
      fixtureReply.json({ label: "bug" }, { finishReason: "length" }),
      fixtureReply.finalAnswer("It is a bug."),
    );
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "triage-desk", query: "The app crashes on start" },
    });
    const runId = started.body.runId as string;
    const run = await waitForRun(server, runId);
    expect(run.status, JSON.stringify(run.error)).toBe("finished");
    // Planning calls stream (SSE); the llm tool's call does not.
    const streamed = fixture.requests
      .slice(asked)
      .map((request) => (request.body as { stream?: unknown }).stream);
    expect(streamed).toEqual([true, false, true]);
    const root = await receiver.waitFor(
      (span) =>
        span.attributes["waddle.run.id"] === runId && span.attributes["waddle.run.status"] === "finished",
    );
    const chats = receiver.trace(root.traceId).filter((span) => span.name === "chat house-model");
    const byPurpose = chats.map((span) => [
      span.attributes["waddle.llm.purpose"],
      span.attributes["gen_ai.response.finish_reasons"],
    ]);
    expect(byPurpose.filter(([purpose]) => purpose === "tool")).toEqual([["tool", ["length"]]]);
    expect(byPurpose.filter(([purpose]) => purpose === "plan")).toEqual([
      ["plan", ["stop"]],
      ["plan", ["stop"]],
    ]);
  });

  it("sends the tool span's traceparent to an MCP server over HTTP", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "mcp-echo",
      name: "MCP echo",
      llm: { provider: "openai", model: "house-model" },
      tools: [{ name: "say", impl: { kind: "mcp", server: "fixture", tool: "echo" } }],
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    fixture.enqueue(
      fixtureReply.json({ next_node: "say", args: { text: "hello" } }),
      fixtureReply.finalAnswer("It said hello."),
    );
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "mcp-echo", query: "Say hello" },
    });
    const runId = started.body.runId as string;
    const run = await waitForRun(server, runId);
    expect(run.status, JSON.stringify(run.error)).toBe("finished");
    const root = await receiver.waitFor(
      (span) =>
        span.attributes["waddle.run.id"] === runId && span.attributes["waddle.run.status"] === "finished",
    );
    const say = receiver.trace(root.traceId).find((span) => span.name === "execute_tool say")!;
    expect(say.attributes["gen_ai.tool.type"]).toBe("extension");
    const sent = mcp.headers
      .map((headers) => headers.traceparent)
      .filter((value): value is string => typeof value === "string")
      .map((value) => parseTraceparent(value));
    expect(sent).toContainEqual({ traceId: root.traceId, spanId: say.spanId, flags: 1 });
  });
});
