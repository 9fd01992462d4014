import { ToolSpec } from "@waddle/protocol";
import type { ToolRunContext } from "@waddle/planner";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isApiError } from "../shared/api-error.js";
import { createLogger } from "../shared/logger.js";
import {
  getMcpFixtureStdioConfig,
  startMcpFixtureHttpServer,
  type McpFixtureHttpServer,
} from "../testing/mcp-fixture-server.js";
import { createImplResolver } from "../runs/create-impl-resolver.js";
import { HostAllowList } from "../tools/host-allow-list.js";
import { SecretRedactor } from "../secrets/secret-redactor.js";
import { ToolExecutionError } from "../tools/tool-execution-error.js";
import { McpClientManager } from "./mcp-client-manager.js";
import type { McpServerConfig } from "./mcp-servers-config.js";

const SECRET = "fixture-bearer-0123456789";
const logger = createLogger({ level: "silent" });
const redactor = new SecretRedactor([SECRET]);

function createManager(servers: McpServerConfig[], allow: string[] = []): McpClientManager {
  return new McpClientManager({
    servers,
    secrets: { FIXTURE_AUTH: `Bearer ${SECRET}` },
    allowList: new HostAllowList(allow),
    redactor,
    logger,
    connectTimeoutMs: 15_000,
  });
}

function createRunner(
  manager: McpClientManager,
  options: { server: string; tool: string; timeoutMs?: number },
) {
  const resolve = createImplResolver({
    allowList: new HostAllowList([]),
    secrets: {},
    redactor,
    createLlm: () => {
      throw new Error("no LLM here");
    },
    agentLlm: { provider: "offline", model: "offline", temperature: 0 },
    runSubagent: () => Promise.reject(new Error("no subagents here")),
    mcp: manager,
  });
  const tool = ToolSpec.parse({
    name: `${options.server}_${options.tool}`,
    impl: { kind: "mcp", server: options.server, tool: options.tool },
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const runner = resolve(tool)!;
  return (args: Record<string, unknown> = {}, signal = new AbortController().signal) =>
    runner(args, createContext(signal)) as Promise<Record<string, unknown>>;
}

function createContext(signal: AbortSignal): ToolRunContext {
  return {
    signal,
    toolContext: {},
    runId: "run_test",
    step: 1,
    callId: "call_1",
    attempt: 1,
    query: "q",
    observations: { last: undefined, byTool: {} },
    reportUsage: () => undefined,
    pause: () => {
      throw new Error("no pauses here");
    },
  };
}

async function failureOf(promise: Promise<unknown>): Promise<ToolExecutionError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolExecutionError);
  return error as ToolExecutionError;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const value = await read();
    if (done(value) || attempt >= 50) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Stats {
  pid: number;
  calls: string[];
  cancelled: string[];
}

let http: McpFixtureHttpServer;
beforeAll(async () => {
  http = await startMcpFixtureHttpServer();
});
afterAll(() => http.close());

const transports: [string, () => McpServerConfig, () => string[]][] = [
  ["stdio", () => getMcpFixtureStdioConfig("fixture"), () => []],
  [
    "Streamable HTTP",
    () => ({
      name: "fixture",
      transport: "http",
      url: http.url,
      headers: { Authorization: { secret: "FIXTURE_AUTH" }, "X-Client": "waddle-test" },
    }),
    () => [http.host],
  ],
];

describe.each(transports)("an MCP server over %s", (transport, getConfig, getAllow) => {
  let manager: McpClientManager;
  const stats = () => createRunner(manager, { server: "fixture", tool: "stats" })() as Promise<unknown>;
  beforeAll(() => {
    manager = createManager([getConfig()], getAllow());
  });
  afterAll(() => manager.close());

  it("starts idle, then lists its tools with their schemas", async () => {
    expect(manager.get("fixture")?.getInfo()).toMatchObject({ status: "idle", tools: [] });
    const [server] = await manager.listServers();
    expect(server).toMatchObject({
      name: "fixture",
      transport: transport === "stdio" ? "stdio" : "http",
      status: "connected",
    });
    const byName = new Map(server!.tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual([
      "add",
      "confirm",
      "count",
      "crash",
      "delete_page",
      "document",
      "echo",
      "fail",
      "fetch_url",
      "note",
      "picture",
      "reindex",
      "slow",
      "stats",
      "summarize",
    ]);
    expect(byName.get("echo")).toMatchObject({
      desc: "Echoes the text back.",
      readOnly: true,
      argsSchema: { type: "object", properties: { text: { type: "string", default: "hello" } } },
    });
    expect(byName.get("echo")?.outSchema).toBeUndefined();
    expect(byName.get("add")?.outSchema).toMatchObject({ properties: { sum: { type: "number" } } });
    expect(byName.get("echo")?.argsSchema).not.toHaveProperty("$schema");
  });

  it("calls a tool: text as {text}, structured content as it is", async () => {
    expect(await createRunner(manager, { server: "fixture", tool: "echo" })({ text: "hi" })).toEqual({
      text: "echo: hi",
    });
    expect(await createRunner(manager, { server: "fixture", tool: "add" })({ a: 4, b: 5 })).toEqual({
      sum: 9,
    });
  });

  it("cancels a slow call with MCP's cancel notification, which the server sees", async () => {
    const controller = new AbortController();
    const slowCalls = (value: unknown) => (value as Stats).calls.filter((name) => name === "slow").length;
    const before = slowCalls(await stats());
    const call = createRunner(manager, { server: "fixture", tool: "slow" })(
      { ms: 30_000 },
      controller.signal,
    );
    // cancel once the server has the call (a fixed delay could cancel before the request is even sent)
    await waitFor(stats, (value) => slowCalls(value) > before);
    const started = Date.now();
    controller.abort(new Error("run cancelled"));
    await expect(call).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    const seen = (await waitFor(stats, (value) => (value as Stats).cancelled.length > 0)) as Stats;
    expect(seen.cancelled).toHaveLength(1);
    // the connection stays usable
    expect(await createRunner(manager, { server: "fixture", tool: "echo" })({ text: "after" })).toEqual({
      text: "echo: after",
    });
  });

  it("turns an error result into a failure the model can act on", async () => {
    const error = await failureOf(
      createRunner(manager, { server: "fixture", tool: "fail" })({ reason: "quota exceeded" }),
    );
    expect(error).toMatchObject({ code: "mcp_tool_error", retryable: false });
    expect(error.message).toContain("fixture failure: quota exceeded");
  });

  it("refuses a tool the server does not list, naming the ones it does", async () => {
    const error = await failureOf(createRunner(manager, { server: "fixture", tool: "nope" })());
    expect(error).toMatchObject({ code: "mcp_unknown_tool", retryable: false });
    expect(error.message).toContain("echo");
  });

  it("connects again (a stdio server is restarted) on the call after a crash", async () => {
    const before = (await stats()) as Stats;
    const started = Date.now();
    const crash = createRunner(manager, { server: "fixture", tool: "crash", timeoutMs: 15_000 })();
    const error = await failureOf(crash);
    expect(error).toMatchObject({ code: "mcp_connection_closed", retryable: true });
    expect(Date.now() - started, "the call fails when the server goes, not at its timeout").toBeLessThan(
      5_000,
    );
    expect(manager.get("fixture")?.getInfo().status).toBe("error");
    expect(await createRunner(manager, { server: "fixture", tool: "echo" })({ text: "back" })).toEqual({
      text: "echo: back",
    });
    const after = (await stats()) as Stats;
    expect(after.calls).toEqual(["echo"]);
    if (transport === "stdio") expect(after.pid).not.toBe(before.pid);
    expect(manager.get("fixture")?.getInfo().status).toBe("connected");
  });
});

describe("servers outside the rules", () => {
  it("refuses an mcp tool whose server WADDLE_MCP_SERVERS does not list", async () => {
    const manager = createManager([]);
    const error = await failureOf(createRunner(manager, { server: "elsewhere", tool: "echo" })());
    expect(error).toMatchObject({ code: "mcp_server_not_configured", retryable: false });
    const spec = {
      tools: [ToolSpec.parse({ name: "t", impl: { kind: "mcp", server: "elsewhere", tool: "echo" } })],
    };
    let refused: unknown;
    try {
      manager.assertSpec(spec as never);
    } catch (caught) {
      refused = caught;
    }
    expect(isApiError(refused) && refused.code).toBe("mcp_server_not_configured");
    expect(isApiError(refused) && refused.status).toBe(422);
  });

  it("refuses a Streamable HTTP server that is not on the http allow-list, and says so", async () => {
    const manager = createManager([{ name: "remote", transport: "http", url: http.url, headers: {} }]);
    const before = http.headers.length;
    const error = await failureOf(createRunner(manager, { server: "remote", tool: "echo" })());
    expect(error).toMatchObject({ code: "host_not_allowed", retryable: false });
    const [server] = await manager.listServers();
    expect(server).toMatchObject({ status: "error", tools: [] });
    expect(server?.error).toContain("WADDLE_HTTP_ALLOW");
    expect(http.headers.length).toBe(before);
    await manager.close();
  });

  it("sends secret headers to the server and never shows them", async () => {
    const manager = createManager(
      [
        {
          name: "remote",
          transport: "http",
          url: http.url,
          headers: { Authorization: { secret: "FIXTURE_AUTH" } },
        },
      ],
      [http.host],
    );
    await manager.listServers();
    expect(http.headers.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);
    expect(JSON.stringify(await manager.listServers())).not.toContain(SECRET);
    await manager.close();
  });

  it("reports a stdio server that cannot start, with what it printed", async () => {
    const manager = createManager([
      {
        name: "broken",
        transport: "stdio",
        command: process.execPath,
        args: ["-e", "console.error('no config'); process.exit(2)"],
        env: {},
      },
    ]);
    const [server] = await manager.listServers();
    expect(server).toMatchObject({ name: "broken", status: "error" });
    expect(server?.error).toContain("no config");
    await manager.close();
  });

  it("closes a server that is still starting without waiting for its handshake", async () => {
    const manager = createManager([
      {
        name: "mute",
        transport: "stdio",
        command: process.execPath,
        args: ["-e", "setInterval(() => {}, 1000)"],
        env: {},
      },
    ]);
    const listing = manager.listServers();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await manager.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await listing)[0]?.status).toBe("idle");
    const error = await failureOf(createRunner(manager, { server: "mute", tool: "echo" })());
    expect(error.message).toContain("shutting down");
  });

  it("ends a stdio server's process on close", async () => {
    const manager = createManager([getMcpFixtureStdioConfig("fixture")]);
    const { pid } = (await createRunner(manager, { server: "fixture", tool: "stats" })()) as unknown as Stats;
    expect(() => process.kill(pid, 0)).not.toThrow();
    await manager.close();
    await waitFor(
      async () => isAlive(pid),
      (alive) => !alive,
    );
    expect(isAlive(pid)).toBe(false);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
