import { ToolSpec } from "@waddle/protocol";
import {
  ToolPauseSignal,
  type ToolProgressInput,
  type ToolResumeInput,
  type ToolRunContext,
} from "@waddle/planner";
import { ScriptedClient } from "@waddle/planner/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImplResolver } from "../runs/create-impl-resolver.js";
import { SecretRedactor } from "../secrets/secret-redactor.js";
import { createLogger } from "../shared/logger.js";
import {
  getMcpFixtureStdioConfig,
  startMcpFixtureHttpServer,
  startMcpFixtureSseServer,
  type McpFixtureHttpServer,
} from "../testing/mcp-fixture-server.js";
import { HostAllowList } from "../tools/host-allow-list.js";
import { McpClientManager } from "./mcp-client-manager.js";
import type { McpServerConfig } from "./mcp-servers-config.js";

/** Progress, elicitation, sampling and the legacy SSE transport, against the fixture on every transport. */

const redactor = new SecretRedactor([]);
const logger = createLogger({ level: "silent" });

interface Seen {
  progress: ToolProgressInput[];
  usage: unknown[];
}

function createRunner(manager: McpClientManager, tool: string, llm = new ScriptedClient([])) {
  const resolve = createImplResolver({
    allowList: new HostAllowList([]),
    secrets: {},
    redactor,
    createLlm: () => llm,
    agentLlm: { provider: "openai", model: "scripted-model", temperature: 0 },
    runSubagent: () => Promise.reject(new Error("no subagents here")),
    mcp: manager,
  });
  const runner = resolve(ToolSpec.parse({ name: tool, impl: { kind: "mcp", server: "fixture", tool } }))!;
  return async (args: Record<string, unknown>, resumeInput?: ToolResumeInput) => {
    const seen: Seen = { progress: [], usage: [] };
    const context: ToolRunContext = {
      signal: new AbortController().signal,
      toolContext: {},
      runId: "run_test",
      step: 1,
      callId: "call_1",
      attempt: 1,
      query: "q",
      observations: { last: undefined, byTool: {} },
      reportUsage: (usage) => void seen.usage.push(usage),
      reportProgress: (progress) => void seen.progress.push(progress),
      pause: (reason, payload) => {
        throw new ToolPauseSignal(reason, payload);
      },
      ...(resumeInput ? { resumeInput } : {}),
    };
    const result = await runner(args, context);
    return { result: result as Record<string, unknown>, seen };
  };
}

let http: McpFixtureHttpServer;
let sse: McpFixtureHttpServer;
beforeAll(async () => {
  http = await startMcpFixtureHttpServer();
  sse = await startMcpFixtureSseServer();
});
afterAll(async () => {
  await http.close();
  await sse.close();
});

const transports: [string, () => McpServerConfig, () => string[]][] = [
  ["stdio", () => getMcpFixtureStdioConfig("fixture"), () => []],
  [
    "Streamable HTTP",
    () => ({ name: "fixture", transport: "http", url: http.url, headers: {} }),
    () => [http.host],
  ],
  [
    "legacy SSE",
    () => ({ name: "fixture", transport: "sse", url: sse.url, headers: { "X-Client": "waddle-test" } }),
    () => [sse.host],
  ],
];

describe.each(transports)("the fixture over %s", (transport, getConfig, getAllow) => {
  let manager: McpClientManager;
  beforeAll(() => {
    manager = new McpClientManager({
      servers: [getConfig()],
      secrets: {},
      allowList: new HostAllowList(getAllow()),
      redactor,
      logger,
      connectTimeoutMs: 15_000,
    });
  });
  afterAll(() => manager.close());

  it("lists and calls tools, with the transport it names", async () => {
    const [server] = await manager.listServers();
    expect(server).toMatchObject({ status: "connected", transport: getConfig().transport });
    const { result } = await createRunner(manager, "echo")({ text: "hi" });
    expect(result).toEqual({ text: "echo: hi" });
    if (transport === "legacy SSE") expect(sse.headers.at(-1)?.["x-client"]).toBe("waddle-test");
  });

  it("reports every progress notification of a call", async () => {
    const { result, seen } = await createRunner(manager, "count")({ to: 4 });
    expect(result).toEqual({ text: "counted to 4" });
    expect(seen.progress.map((progress) => progress.progress)).toEqual([1, 2, 3, 4]);
    expect(seen.progress[3]).toEqual({ progress: 4, total: 4, message: "counted 4" });
  });

  it("pauses at an elicitation, and answers it with the person's answer when called again", async () => {
    const run = createRunner(manager, "confirm");
    const paused = await run({ amount: 5 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(paused).toBeInstanceOf(ToolPauseSignal);
    expect((paused as ToolPauseSignal).reason).toBe("await_input");
    expect((paused as ToolPauseSignal).payload).toMatchObject({
      kind: "mcp_elicitation",
      message: "Refund 5 EUR?",
    });
    const { result } = await run(
      { amount: 5 },
      { decision: "approve", userInput: '{"approve": true, "reason": "late"}' },
    );
    expect(result).toEqual({ text: "refunded 5 EUR: late" });
    // A one-field answer needs no JSON only when the form has one field: this one has two.
    const unfit = await run({ amount: 5 }, { decision: "approve", userInput: "yes" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((unfit as ToolPauseSignal).payload).toMatchObject({
      problem: expect.stringMatching(/JSON object/),
    });
  });

  it("answers a sampling request with the agent's LLM and reports its usage", async () => {
    const llm = new ScriptedClient(["It says hello."]);
    const { result, seen } = await createRunner(manager, "summarize", llm)({ text: "hello world" });
    expect(result).toEqual({ text: "summary by scripted-model: It says hello." });
    expect(llm.calls[0]?.messages).toEqual([
      { role: "system", content: "You summarize." },
      { role: "user", content: "Summarize: hello world" },
    ]);
    expect(seen.usage).toHaveLength(1);
  });
});

describe("the legacy SSE transport and the allow-list", () => {
  it("refuses an SSE server whose host is not on WADDLE_HTTP_ALLOW, before any request", async () => {
    const before = sse.headers.length;
    const manager = new McpClientManager({
      servers: [{ name: "fixture", transport: "sse", url: sse.url, headers: {} }],
      secrets: {},
      allowList: new HostAllowList([]),
      redactor,
      logger,
    });
    const [server] = await manager.listServers();
    expect(server).toMatchObject({ status: "error", transport: "sse" });
    expect(server?.error).toContain("WADDLE_HTTP_ALLOW");
    expect(sse.headers.length).toBe(before);
    await manager.close();
  });
});

describe("a server's per-server timeout (Cline's timeout, in seconds)", () => {
  it("ends a call that takes longer than the server's timeout", async () => {
    const manager = new McpClientManager({
      servers: [{ ...getMcpFixtureStdioConfig("fixture"), timeoutMs: 500 }],
      secrets: {},
      allowList: new HostAllowList([]),
      redactor,
      logger,
      connectTimeoutMs: 15_000,
    });
    const error = await createRunner(
      manager,
      "slow",
    )({ ms: 30_000 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "mcp_timeout" });
    await manager.close();
  });
});
