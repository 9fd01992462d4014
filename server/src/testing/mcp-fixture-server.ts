// An MCP server written with the official SDK, for tests: over stdio as a child process
// (`node --import tsx mcp-fixture-server.ts --stdio`) or over Streamable HTTP in the test's own process.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  isInitializeRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpServerConfig } from "../mcp-client/mcp-servers-config.js";
import { registerMcpGateTool } from "./mcp-gate-tool.js";

/**
 * What one fixture process saw: every call by tool name, the requests it saw cancelled, the progress
 * tokens calls carried, and the answers its elicitations got.
 */
export interface McpFixtureObserved {
  calls: string[];
  cancelled: string[];
  progressTokens: (string | number)[];
  elicitations: { action: string; content?: Record<string, unknown> }[];
}

/** A 1×1 PNG, as an image item's base64 data (67 bytes). */
export const FIXTURE_PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/**
 * The fixture's tools: `echo` (text back; `text` defaults to "hello"), `add` (structured content under an
 * output schema), `slow` (waits, and records a cancellation), `fail` (an `isError` result), `crash` (the
 * server goes away: a stdio process exits) and `stats` (pid, calls and cancellations seen); and for results
 * in full: `document` (an embedded text resource and a blob one), `picture` (an image and audio),
 * `delete_page` / `fetch_url` / `note` (annotations), `count` (progress notifications), `confirm`
 * (an elicitation), `summarize` (a sampling request) and `reindex` (a tool that runs only as an MCP task).
 * Given a gate server (`gatesURL`), also `gate` (`mcp-gate-tool.ts`).
 */
export function createMcpFixtureServer(options: {
  onCrash: () => void;
  gatesURL?: string | undefined;
}): McpServer {
  const observed: McpFixtureObserved = { calls: [], cancelled: [], progressTokens: [], elicitations: [] };
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
      outputSchema: {
        pid: z.number(),
        calls: z.array(z.string()),
        cancelled: z.array(z.string()),
        progressTokens: z.array(z.union([z.string(), z.number()])),
        elicitations: z.array(
          z.object({ action: z.string(), content: z.record(z.string(), z.unknown()).optional() }),
        ),
      },
    },
    async () => {
      const stats = {
        pid: process.pid,
        calls: [...observed.calls],
        cancelled: [...observed.cancelled],
        progressTokens: [...observed.progressTokens],
        elicitations: observed.elicitations.map((answer) => ({ ...answer })),
      };
      return { ...text(JSON.stringify(stats)), structuredContent: stats };
    },
  );
  registerFullResultTools(server, observed);
  const { gatesURL } = options;
  if (gatesURL) registerMcpGateTool(server, { gatesURL, onCall: () => observed.calls.push("gate") });
  return server;
}

/** The tools whose results go beyond text: resources, binary items, annotations, progress, elicitation, sampling, tasks. */
function registerFullResultTools(server: McpServer, observed: McpFixtureObserved): void {
  server.registerTool(
    "document",
    { description: "Answers with a document as embedded resources.", annotations: { readOnlyHint: true } },
    async () => {
      observed.calls.push("document");
      return {
        content: [
          { type: "text" as const, text: "Here is the handbook." },
          {
            type: "resource" as const,
            resource: {
              uri: "file:///handbook.md",
              mimeType: "text/markdown",
              text: "# Handbook\nRefunds take 5 days.",
            },
          },
          {
            type: "resource" as const,
            resource: {
              uri: "file:///handbook.pdf",
              mimeType: "application/pdf",
              blob: Buffer.from("%PDF-1.7 fixture").toString("base64"),
            },
          },
          {
            type: "resource_link" as const,
            uri: "file:///appendix.md",
            name: "appendix",
            mimeType: "text/markdown",
          },
        ],
      };
    },
  );
  server.registerTool(
    "picture",
    { description: "Answers with an image and a sound.", annotations: { readOnlyHint: true } },
    async () => {
      observed.calls.push("picture");
      return {
        content: [
          { type: "text" as const, text: "A picture and a beep." },
          { type: "image" as const, data: FIXTURE_PNG_BASE64, mimeType: "image/png" },
          { type: "audio" as const, data: Buffer.alloc(1_000, 7).toString("base64"), mimeType: "audio/wav" },
        ],
      };
    },
  );
  const annotated = (name: string, description: string, annotations: Record<string, boolean>) =>
    server.registerTool(
      name,
      { description, inputSchema: { id: z.string().default("p1") }, annotations },
      async ({ id }) => {
        observed.calls.push(name);
        return { content: [{ type: "text" as const, text: `${name} ${id}` }] };
      },
    );
  annotated("delete_page", "Deletes a page.", { destructiveHint: true, openWorldHint: false });
  annotated("fetch_url", "Fetches a URL from the web.", { readOnlyHint: false, openWorldHint: true });
  annotated("note", "Adds a note to the local notebook.", { destructiveHint: false, openWorldHint: false });
  server.registerTool(
    "count",
    {
      description: "Counts to `to`, reporting progress at each number.",
      inputSchema: { to: z.number().int().min(1).max(20).default(3) },
    },
    async ({ to }, extra) => {
      observed.calls.push("count");
      const token = extra._meta?.progressToken;
      if (token !== undefined) observed.progressTokens.push(token);
      for (let at = 1; at <= to; at += 1) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: at, total: to, message: `counted ${at}` },
          });
        }
      }
      return { content: [{ type: "text" as const, text: `counted to ${to}` }] };
    },
  );
  server.registerTool(
    "confirm",
    {
      description: "Asks a person to confirm a refund before making it.",
      inputSchema: { amount: z.number().default(20) },
    },
    async ({ amount }, extra) => {
      observed.calls.push("confirm");
      const answer = await extra.sendRequest(
        {
          method: "elicitation/create",
          params: {
            message: `Refund ${amount} EUR?`,
            requestedSchema: {
              type: "object",
              properties: {
                approve: { type: "boolean", description: "Make the refund" },
                reason: { type: "string", description: "Why" },
              },
              required: ["approve"],
            },
          },
        },
        ElicitResultSchema,
      );
      observed.elicitations.push({
        action: answer.action,
        ...(answer.content ? { content: answer.content } : {}),
      });
      if (answer.action !== "accept")
        return { content: [{ type: "text" as const, text: `no refund (${answer.action})` }] };
      return {
        content: [
          {
            type: "text" as const,
            text:
              answer.content?.approve === true
                ? `refunded ${amount} EUR: ${String(answer.content.reason ?? "")}`
                : "refund refused",
          },
        ],
      };
    },
  );
  server.registerTool(
    "summarize",
    {
      description: "Summarizes text with the client's LLM (MCP sampling).",
      inputSchema: { text: z.string().default("a long text") },
    },
    async ({ text: value }, extra) => {
      observed.calls.push("summarize");
      const reply = await extra.sendRequest(
        {
          method: "sampling/createMessage",
          params: {
            systemPrompt: "You summarize.",
            messages: [{ role: "user", content: { type: "text", text: `Summarize: ${value}` } }],
            maxTokens: 100,
          },
        },
        CreateMessageResultSchema,
      );
      const summary = reply.content.type === "text" ? reply.content.text : `(${reply.content.type})`;
      return { content: [{ type: "text" as const, text: `summary by ${reply.model}: ${summary}` }] };
    },
  );
  const noTasks = () => Promise.reject(new Error("the fixture runs no tasks"));
  server.experimental.tasks.registerToolTask(
    "reindex",
    { description: "Rebuilds the index as a long-running MCP task.", execution: { taskSupport: "required" } },
    { createTask: noTasks, getTask: noTasks, getTaskResult: noTasks },
  );
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

/**
 * The fixture over the legacy HTTP+SSE transport (MCP 2024-11-05): `GET /sse` opens the stream, whose
 * `endpoint` event names `POST /messages?sessionId=…`.
 */
export async function startMcpFixtureSseServer(): Promise<McpFixtureHttpServer> {
  const sessions = new Map<string, SSEServerTransport>();
  const headers: McpFixtureHttpServer["headers"] = [];
  const http = createServer((request, response) => {
    headers.push({ ...request.headers });
    const url = new URL(request.url ?? "/", "http://fixture");
    if (request.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", response);
      sessions.set(transport.sessionId, transport);
      transport.onclose = () => sessions.delete(transport.sessionId);
      void createMcpFixtureServer({ onCrash: () => setImmediate(() => http.closeAllConnections()) }).connect(
        transport,
      );
      return;
    }
    const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
    if (request.method === "POST" && url.pathname === "/messages" && transport) {
      void transport.handlePostMessage(request, response);
      return;
    }
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: "no such session" }));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    host: `127.0.0.1:${port}`,
    headers,
    close: async () => {
      for (const transport of sessions.values()) void transport.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
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
  const server = createMcpFixtureServer({
    onCrash: () => process.exit(3),
    gatesURL: process.env.WADDLE_MCP_FIXTURE_GATES,
  });
  await server.connect(new StdioServerTransport());
}
