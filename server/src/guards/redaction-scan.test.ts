import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineTool } from "@waddle/planner";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec, type RunEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { OtlpTestReceiver } from "../observability/otlp-test-receiver.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

// Issue 35's redaction scan: a tool result holding an email and a card number, under a pii guard that
// redacts tool results, reaches the model masked, and the original is nowhere the server keeps or sends:
// not in the run's events (stored or live), not in the SQLite store's files (database and write-ahead log,
// read byte for byte), not in the OTLP export (content capture on, so tool results are on spans).

const KEY = "fixture-key-redaction-scan";
// Built at run time by a module tool, so that no spec, query or answer the server stores holds them.
const EMAIL = ["ana.lopez", "example.org"].join("@");
const CARD = ["4111", "1111", "1111", "1111"].join(" ");
const SECRETS = [EMAIL, CARD, CARD.replaceAll(" ", ""), "ana.lopez"];

let fixture: OpenAiFixtureServer;
let receiver: OtlpTestReceiver;
let server: TestServer;
const live: RunEvent[] = [];

beforeAll(async () => {
  fixture = await startOpenAiFixtureServer({ apiKey: KEY, models: ["house-model"] });
  receiver = new OtlpTestReceiver();
  const endpoint = await receiver.start();
  server = await startTestServer({
    exampleAgentsDir: null,
    env: {
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: fixture.baseURL,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "20",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
    },
  });
  server.registry.register(
    defineTool({
      name: "find_customer",
      desc: "Finds a customer's contact and card on file",
      args: z.object({ name: z.string() }),
      out: z.object({ name: z.string(), contact: z.string(), card: z.string(), note: z.string() }),
      sideEffects: "read",
      run: ({ name }) => ({
        name,
        contact: EMAIL,
        card: CARD,
        note: `Write to ${EMAIL} before charging ${CARD}.`,
      }),
    }),
    "test/find-customer.ts",
  );
  server.hub.onEvent((event) => live.push(event));
});
afterAll(async () => {
  await server.stop();
  await receiver.close();
  await fixture.close();
});

/** Which of the originals a text holds. */
const foundIn = (text: string) => SECRETS.filter((secret) => text.includes(secret));

describe("a redacting pii guard on tool results", () => {
  it("masks the result before the model sees it, and the original is in no event, store file or span", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "billing-desk",
      name: "Billing desk",
      llm: { provider: "openai", model: "house-model" },
      tools: [
        { name: "find_customer", desc: "Finds a customer", impl: { kind: "module", ref: "find_customer" } },
      ],
      guards: [{ name: "no-pii", on: "tool_result", check: { kind: "pii" }, action: "redact" }],
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    fixture.enqueue(
      fixtureReply.json({ next_node: "find_customer", args: { name: "Ana" } }),
      fixtureReply.finalAnswer("Ana's contact and card are on file; I will not repeat them here."),
    );
    const before = fixture.completionRequests.length;
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "billing-desk", query: "How do I reach Ana, and which card do we charge?" },
    });
    expect(started.status, started.text).toBe(202);
    const runId = started.body.runId as string;
    expect((await waitForRun(server, runId)).status).toBe("finished");

    // The model read the result masked.
    const [, second] = fixture.completionRequests.slice(before);
    const seen = JSON.stringify(second?.body);
    expect(seen).toContain("[email]");
    expect(seen).toContain("[card]");
    expect(foundIn(seen)).toEqual([]);

    // The guard decided, with counts only.
    const stored = (await server.request(`/api/runs/${runId}/events`)).body.events as RunEvent[];
    const verdict = stored.find((event) => event.type === "guard_verdict");
    expect(verdict?.data).toMatchObject({
      guard: "no-pii",
      verdict: "fail",
      action: "redact",
      tool: "find_customer",
    });
    expect(verdict?.data.findings).toEqual(
      expect.arrayContaining([
        { kind: "email", count: 2 },
        { kind: "card", count: 2 },
      ]),
    );
    const toolEnd = stored.find((event) => event.type === "tool_end");
    expect(toolEnd?.data.observation).toMatchObject({ contact: "[email]", card: "[card]" });

    // Events, stored and live (stream chunks included), the run's record.
    expect(foundIn(JSON.stringify(stored))).toEqual([]);
    expect(foundIn(JSON.stringify(live.filter((event) => event.runId === runId)))).toEqual([]);
    expect(foundIn(JSON.stringify(await server.store.getRun(runId)))).toEqual([]);

    // The SQLite files as they are on disk: the database and its write-ahead log, byte for byte.
    const files = readdirSync(server.dataDir).filter((name) => /\.(db|sqlite)(-wal|-shm)?$|-wal$/.test(name));
    expect(files.some((name) => name.endsWith("-wal"))).toBe(true);
    for (const name of files) {
      const bytes = readFileSync(path.join(server.dataDir, name));
      expect(bytes.length, name).toBeGreaterThan(0);
      expect(
        SECRETS.filter((secret) => bytes.includes(Buffer.from(secret, "utf8"))),
        name,
      ).toEqual([]);
    }

    // What OTLP sent: the run's span and its tool span (with the result, as content capture puts it).
    await receiver.waitFor(
      (span) =>
        span.attributes["waddle.run.id"] === runId && span.attributes["waddle.run.status"] === "finished",
    );
    const tool = receiver.spans.find(
      (span) =>
        span.name === "execute_tool find_customer" &&
        span.events.some((event) => event.name === "guard_verdict"),
    );
    expect(String(tool?.attributes["gen_ai.tool.call.result"])).toContain("[email]");
    expect(foundIn(receiver.bodies.join("\n"))).toEqual([]);
  });
});
