// An MCP server written with the official SDK, for tests: over stdio as a child process
// (`node --import tsx mcp-fixture-server.ts --stdio`) or over Streamable HTTP in the test's own process.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpServerConfig } from "../mcp-client/mcp-servers-config.js";

/** What one fixture process saw: every call by tool name, and the requests it saw cancelled. */
export interface McpFixtureObserved {
  calls: string[];
  cancelled: string[];
}

/**
 * The fixture's tools: `echo` (text back; `text` defaults to "hello"), `add` (structured content under an
 * output schema), `slow` (waits, and records a cancellation), `fail` (an `isError` result), `crash` (the
 * server goes away: a stdio process exits) and `stats` (pid, calls and cancellations seen).
 */
export function createMcpFixtureServer(options: { onCrash: () => void }): McpServer {
  const observed: McpFixtureObserved = { calls: [], cancelled: [] };
  const server = new McpServer({ name: "waddle-mcp-fixture", version: "1.0.0" });
  const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
  server.registerTool(
    "echo",
    {
      description: "Echoes the text back.",
      inputSchema: { text: z.string().default("hello").describe("What to echo") },
      annotations: { readOnlyHint: true },
    },
    async ({ text: value }) => {
      observed.calls.push("echo");
      return text(`echo: ${value}`);
    },
  );
  server.registerTool(
    "add",
    {
      description: "Adds two numbers.",
      inputSchema: { a: z.number().default(2), b: z.number().default(3) },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => {
      observed.calls.push("add");
      return { ...text(String(a + b)), structuredContent: { sum: a + b } };
    },
  );
  server.registerTool(
    "slow",
    {
      description: "Waits `ms` milliseconds, then answers; stops when the call is cancelled.",
      inputSchema: { ms: z.number().int().min(0).default(30_000) },
    },
    async ({ ms }, extra) => {
      observed.calls.push("slow");
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          observed.cancelled.push(String(extra.requestId));
          reject(new Error("cancelled"));
        });
      });
      return text(`waited ${ms} ms`);
    },
  );
  server.registerTool(
    "fail",
    {
      description: "Answers with an MCP error result.",
      inputSchema: { reason: z.string().default("the fixture always fails") },
    },
    async ({ reason }) => {
      observed.calls.push("fail");
      return { ...text(`fixture failure: ${reason}`), isError: true };
    },
  );
  server.registerTool("crash", { description: "The server goes away mid-call." }, async () => {
    observed.calls.push("crash");
    options.onCrash();
    return new Promise<never>(() => undefined);
  });
  server.registerTool(
    "stats",
    {
      description: "What this server process has seen.",
      outputSchema: { pid: z.number(), calls: z.array(z.string()), cancelled: z.array(z.string()) },
    },
    async () => {
      const stats = { pid: process.pid, calls: [...observed.calls], cancelled: [...observed.cancelled] };
      return { ...text(JSON.stringify(stats)), structuredContent: stats };
    },
  );
  return server;
}

const FIXTURE_FILE = fileURLToPath(import.meta.url);

/** A `WADDLE_MCP_SERVERS` entry that starts this fixture over stdio with node and tsx. */
export function getMcpFixtureStdioConfig(name = "fixture"): McpServerConfig {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return {
    name,
    transport: "stdio",
    command: process.execPath,
    args: ["--import", tsx, FIXTURE_FILE, "--stdio"],
    env: {},
  };
}

/**
 * The fixture over Streamable HTTP on 127.0.0.1. `crash` cuts every connection and forgets every session,
 * as a server that died and came back would.
 */
export interface McpFixtureHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** `127.0.0.1:<port>`, the allow-list entry that lets Waddle reach it. */
  host: string;
  /** Request headers seen, lower-case names. */
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

export async function startMcpFixtureHttpServer(): Promise<McpFixtureHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const headers: McpFixtureHttpServer["headers"] = [];
  const dropSessions = () => {
    const transports = [...sessions.values()];
    sessions.clear();
    for (const transport of transports) void transport.close();
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    headers.push({ ...request.headers });
    const sessionId = request.headers["mcp-session-id"];
    const known = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (known) return known.handleRequest(request, response);
    const body = request.method === "POST" ? await readJson(request) : undefined;
    if (sessionId !== undefined || !isInitializeRequest(body)) {
      response.writeHead(sessionId === undefined ? 400 : 404, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "No such session" } }));
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    const crash = () => {
      dropSessions();
      http.closeAllConnections();
    };
    await createMcpFixtureServer({ onCrash: () => setImmediate(crash) }).connect(transport);
    await transport.handleRequest(request, response, body);
  };
  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    host: `127.0.0.1:${port}`,
    headers,
    close: async () => {
      dropSessions();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

if (process.argv[1] === FIXTURE_FILE && process.argv.includes("--stdio")) {
  const server = createMcpFixtureServer({ onCrash: () => process.exit(3) });
  await server.connect(new StdioServerTransport());
}
