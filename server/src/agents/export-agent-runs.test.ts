import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { listExampleAgentFiles } from "@waddle/examples";
import { AgentSpec, type RunEvent } from "@waddle/protocol";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../create-runtime.js";
import { readRunSettings } from "../run-settings.js";
import { createRunSetup, type RunSetup } from "../run-setup.js";
import { followRun } from "../runs/follow-run.js";
import { createLogger } from "../shared/logger.js";
import { MemoryStore } from "../store/memory-store.js";
import { getMcpFixtureStdioConfig } from "../testing/mcp-fixture-server.js";
import { exportAgent } from "./export-agent.js";
import { typecheckFiles } from "../testing/typecheck-files.js";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const examplesDir = path.join(serverDir, "../apps/examples");
// Inside the repository, so that @waddle/* and zod resolve from its node_modules.
const dir = mkdtempSync(path.join(serverDir, ".tmp-export-runs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = "http-secret-value-0042";
const exampleIds = listExampleAgentFiles().map(({ id }) => id);

/** A local http server standing in for an API: records each request and answers with JSON. */
let api: Server;
let apiHost: string;
const apiRequests: { url: string; authorization: string | undefined }[] = [];
let fixture: OpenAiFixtureServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  api = createServer((request, response) => {
    apiRequests.push({ url: request.url ?? "", authorization: request.headers.authorization });
    request.resume();
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ title: `Page ${request.url}`, words: 120 }));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiHost = `127.0.0.1:${(api.address() as AddressInfo).port}`;
  fixture = await startOpenAiFixtureServer({ apiKey: "fixture-key-0042" });
  const mcp = getMcpFixtureStdioConfig("fixture");
  if (mcp.transport !== "stdio") throw new Error("the MCP fixture config is a stdio one");
  env = {
    PATH: process.env.PATH,
    OPENAI_API_KEY: "fixture-key-0042",
    OPENAI_BASE_URL: fixture.baseURL,
    WADDLE_SECRET_API: SECRET,
    WADDLE_MCP_SERVERS: JSON.stringify({
      mcpServers: { fixture: { command: mcp.command, args: mcp.args } },
    }),
  };
});
afterAll(async () => {
  await fixture.close();
  await new Promise<void>((resolve) => api.close(() => resolve()));
});

function everyKindAgent(): AgentSpec {
  return AgentSpec.parse({
    version: 1,
    id: "every-kind",
    name: "Every kind",
    llm: { provider: "openai", model: "fixture-model" },
    tools: [
      {
        name: "fetch_page",
        desc: "Fetches a page",
        argsSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        impl: {
          kind: "http",
          url: `http://${apiHost}/pages/{id}`,
          headers: { authorization: { secret: "API" } },
        },
      },
      {
        name: "classify",
        desc: "Classifies a text",
        argsSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        outSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
        impl: { kind: "llm", prompt: "Classify {{args.text}}" },
      },
      { name: "say", impl: { kind: "mcp", server: "fixture", tool: "echo" } },
      { name: "delegate", impl: { kind: "agent", agentId: "support-triage" } },
      { name: "stats", impl: { kind: "module", ref: "text_stats" } },
    ],
  });
}

/** The main model's script for the every-kind agent; the llm tool's reply comes second. */
function enqueueEveryKindScript(): void {
  fixture.enqueue(
    fixtureReply.json({ next_node: "fetch_page", args: { id: "42" } }),
    fixtureReply.json({ next_node: "classify", args: { text: "a duplicate charge" } }),
    fixtureReply.json({ label: "billing" }),
    fixtureReply.json({ next_node: "say", args: { text: "hi" } }),
    fixtureReply.json({ next_node: "delegate", args: { query: "My invoice shows a duplicate charge" } }),
    fixtureReply.json({ next_node: "stats", args: { text: "One two three. Four five." } }),
    fixtureReply.finalAnswer("All five tools answered."),
  );
}

/** What a run did, comparable between a server run and an exported run. */
function getCalls(events: readonly RunEvent[]): { tool: string; ok: boolean }[] {
  return events.flatMap((event) =>
    event.type === "tool_end" || event.type === "tool_error"
      ? [{ tool: (event.data as { tool: string }).tool, ok: event.type === "tool_end" }]
      : [],
  );
}

/** Runs the agent the server's way (createRuntime over a store) and returns its events. */
async function runOnServer(setup: RunSetup, store: MemoryStore, spec: AgentSpec, query: string) {
  const { runs, hub } = await createRuntime({ env, store, setup, maxConcurrentRuns: 1 });
  if (!(await store.getAgent(spec.id))) await store.createAgent({ spec });
  const { runId } = await runs.startRun({ agentId: spec.id, query });
  const events: RunEvent[] = [];
  const run = await followRun({ hub, store, runId, afterSeq: 0, onEvent: (event) => events.push(event) });
  await runs.close(1_000);
  return { status: run.status, events };
}

interface ExportedModule {
  spec: AgentSpec;
  run(
    query: string,
    options: { env: NodeJS.ProcessEnv; onEvent: (event: RunEvent) => void },
  ): Promise<{
    kind: string;
    payload?: { answer?: string };
  }>;
}

/** Writes the ts export of `spec` (and the module tools' files) into its own folder, typechecks and imports it. */
async function loadExport(setup: RunSetup, store: MemoryStore, spec: AgentSpec): Promise<ExportedModule> {
  const exported = await exportAgent({
    spec,
    format: "ts",
    getAgent: async (id) => (await store.getAgent(id))?.spec,
    registry: setup.registry,
  });
  const folder = path.join(dir, spec.id);
  mkdirSync(path.join(folder, "tools"), { recursive: true });
  const file = path.join(folder, "agent.ts");
  writeFileSync(file, exported.body);
  for (const name of readdirSync(path.join(examplesDir, "tools"))) {
    if (!name.endsWith(".test.ts"))
      writeFileSync(path.join(folder, "tools", name), readFileSync(path.join(examplesDir, "tools", name)));
  }
  expect(typecheckFiles([file])).toEqual([]);
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as ExportedModule;
}

describe("the TypeScript export runs like the server", () => {
  let setup: RunSetup;
  let store: MemoryStore;
  beforeAll(async () => {
    setup = await createRunSetup({
      env,
      settings: { ...readRunSettings(env), httpAllow: [apiHost] },
      exampleToolsDir: path.join(examplesDir, "tools"),
      logger: createLogger({ level: "silent" }),
    });
    store = new MemoryStore();
    await createRuntime({ env, store, setup, exampleAgentsDir: path.join(examplesDir, "agents") });
  });
  afterAll(async () => {
    await setup.mcp.close();
    await store.close();
  });

  it.each(exampleIds)(
    "%s: typechecks, runs, and makes the same tool calls as a server run",
    async (id) => {
      const spec = (await store.getAgent(id))!.spec;
      // background-research's first sample spawns a sub-agent task: its tool calls are the task's run's.
      const query =
        id === "background-research"
          ? "Research the market for cargo bikes"
          : (spec.sampleQueries[0] ?? "Help me with this.");
      const server = await runOnServer(setup, store, spec, query);
      // email-approval pauses before send_email: the export must pause at the same call.
      expect(server.status).toBe(id === "email-approval" ? "paused" : "finished");
      const exported = await loadExport(setup, store, spec);
      const events: RunEvent[] = [];
      const outcome = await exported.run(query, { env, onEvent: (event) => events.push(event) });
      expect(outcome.kind).toBe(server.status === "paused" ? "pause" : "finish");
      expect(getCalls(events)).toEqual(getCalls(server.events));
      expect(getCalls(events).length).toBeGreaterThan(0);
    },
    120_000,
  );

  it("wires http (allow-list and secret), llm, mcp, subagent and module tools with nothing filled in by hand", async () => {
    const spec = everyKindAgent();
    const served = apiRequests.length;
    enqueueEveryKindScript();
    const server = await runOnServer(setup, store, spec, "Check everything");
    expect(server.status).toBe("finished");
    const exported = await loadExport(setup, store, spec);
    const source = readFileSync(path.join(dir, spec.id, "agent.ts"), "utf8");
    expect(source).not.toContain(SECRET);
    expect(source).not.toContain("fixture-key-0042");
    expect(source).toContain(`export const httpAllow: string[] = ["${apiHost}"];`);
    expect(source).toContain('export const mcpServerNames: string[] = ["fixture"];');
    enqueueEveryKindScript();
    const events: RunEvent[] = [];
    const outcome = await exported.run("Check everything", { env, onEvent: (event) => events.push(event) });
    expect(outcome).toMatchObject({ kind: "finish", payload: { answer: "All five tools answered." } });
    const calls = getCalls(events);
    expect(calls).toEqual(getCalls(server.events));
    expect(calls).toEqual(
      ["fetch_page", "classify", "say", "delegate", "stats"].map((tool) => ({ tool, ok: true })),
    );
    expect(apiRequests.slice(served)).toEqual([
      { url: "/pages/42", authorization: SECRET },
      { url: "/pages/42", authorization: SECRET },
    ]);
    const observation = (tool: string) =>
      JSON.stringify(
        events.find((event) => event.type === "tool_end" && (event.data as { tool: string }).tool === tool)
          ?.data,
      );
    expect(observation("say")).toContain("echo: hi");
    expect(observation("classify")).toContain("billing");
    expect(observation("delegate")).toContain("Duplicate billing charges are reversed");
    expect(fixture.pending).toBe(0);
  }, 120_000);
});
