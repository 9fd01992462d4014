import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  ProgressNotificationSchema,
  type CallToolResult,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema, McpServerInfo, McpToolInfo } from "@waddle/protocol";
import type { Logger } from "../shared/logger.js";
import type { HostAllowList } from "../tools/host-allow-list.js";
import type { HostLookup } from "../tools/resolve-allowed-address.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { ToolExecutionError } from "../tools/tool-execution-error.js";
import { createPinnedFetch } from "./create-pinned-fetch.js";
import { resolveMcpConfigValues, type McpServerConfig } from "./mcp-servers-config.js";
import { getAnnotatedSideEffects, getUnavailableReason } from "./mcp-tool-annotations.js";

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const STDERR_TAIL_CHARS = 2_000;
const MAX_TOOL_PAGES = 50;

/** A progress notification of one call (`notifications/progress` for its `progressToken`). */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * What a call does with what its server sends during it: progress, and the requests a server may make of
 * its client while a tool runs (MCP's elicitation and sampling). A request the call does not handle is
 * refused with a clear answer.
 */
export interface McpCallHooks {
  onProgress?: (progress: McpProgress) => void;
  /** A form elicitation (`elicitation/create`): what a person answers. */
  onElicit?: (params: ElicitRequestFormParams) => Promise<ElicitResult>;
  /** A sampling request (`sampling/createMessage`): an LLM completion. */
  onSample?: (params: CreateMessageRequestParams, signal: AbortSignal) => Promise<CreateMessageResult>;
}

export interface McpConnectionOptions {
  config: McpServerConfig;
  /** Values of `WADDLE_SECRET_<NAME>` by name, for `{"secret": "NAME"}` env and header values. */
  secrets: Readonly<Record<string, string>>;
  allowList: HostAllowList;
  lookup: HostLookup;
  redactor: SecretRedactor;
  logger: Logger;
  clientVersion: string;
  /** How long starting, the MCP handshake and the tool listing may take together. */
  connectTimeoutMs?: number;
}

/**
 * One MCP server the operator listed, connected on first use: a stdio server is started as a child
 * process, a Streamable HTTP one reached through the http allow-list. Its tools are listed once per
 * connection. A server that exits or drops its session is connected (started) again by the next call.
 */
export class McpConnection {
  readonly name: string;
  readonly #options: McpConnectionOptions;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  /** The client of `#connecting`, until its handshake and listing are done. */
  #opening: Client | undefined;
  #tools: McpToolInfo[] = [];
  #status: McpServerInfo["status"] = "idle";
  #error: string | undefined;
  #stderrTail = "";
  #closed = false;
  /** The hooks of the calls in flight: a server's elicitation or sampling request goes to the one call. */
  readonly #inFlight = new Set<McpCallHooks>();
  /** Progress listeners by the `progressToken` their call sent. */
  readonly #progress = new Map<string, NonNullable<McpCallHooks["onProgress"]>>();
  #progressTokens = 0;

  constructor(options: McpConnectionOptions) {
    this.#options = options;
    this.name = options.config.name;
  }

  get transport(): McpServerInfo["transport"] {
    return this.#options.config.transport;
  }

  /** The server as `GET /api/mcp/servers` shows it: the tools of its last listing. */
  getInfo(): McpServerInfo {
    return {
      name: this.name,
      transport: this.transport,
      status: this.#status,
      ...(this.#error === undefined ? {} : { error: this.#error }),
      tools: this.#tools,
    };
  }

  /** Connects unless connected (starting a stdio server) and answers with the listed tools. */
  async listTools(): Promise<McpToolInfo[]> {
    await this.#connect();
    return this.#tools;
  }

  /**
   * Calls a tool. Aborting `signal` sends MCP's `notifications/cancelled` for the request. A connection
   * that fails under the call is dropped, so that the next call connects again; a Streamable HTTP session
   * the server no longer knows (404) is replaced by a new one at once, as the MCP spec asks.
   */
  async callTool(options: {
    tool: string;
    args: Record<string, unknown>;
    signal: AbortSignal;
    timeoutMs: number;
    hooks?: McpCallHooks;
  }): Promise<CallToolResult> {
    const hooks = options.hooks ?? {};
    // Cline's per-server `timeout` caps every call to the server; the planner's own may end it sooner.
    const timeout = Math.min(options.timeoutMs, this.#options.config.timeoutMs ?? Number.POSITIVE_INFINITY);
    for (let attempt = 1; ; attempt += 1) {
      const client = await this.#connect();
      options.signal.throwIfAborted();
      this.#inFlight.add(hooks);
      // Waddle's own progressToken rather than the SDK's `onprogress`: the SDK forgets a request's token
      // as soon as its response is read, so progress sent just before the result (in the same read) was
      // lost. Here a token lives until the call's promise has settled, after those notifications.
      const token = hooks.onProgress ? `waddle-${(this.#progressTokens += 1)}` : undefined;
      if (token !== undefined) this.#progress.set(token, hooks.onProgress!);
      try {
        const result = await client.callTool(
          {
            name: options.tool,
            arguments: options.args,
            ...(token === undefined ? {} : { _meta: { progressToken: token } }),
          },
          undefined,
          { signal: options.signal, timeout },
        );
        return result as CallToolResult;
      } catch (error) {
        if (!isConnectionFailure(error) || options.signal.aborted) throw error;
        this.#drop(client, describeError(error));
        if (attempt > 1 || !(error instanceof StreamableHTTPError && error.code === 404)) throw error;
      } finally {
        this.#inFlight.delete(hooks);
        if (token !== undefined) this.#progress.delete(token);
      }
    }
  }

  /** Closes the client; a stdio server's process is ended (stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.#closed = true;
    // A connection still starting is closed too, so that shutdown never waits for a slow handshake.
    const clients = [this.#client, this.#opening];
    this.#client = undefined;
    this.#status = "idle";
    await Promise.all(clients.map((client) => client?.close().catch(() => undefined)));
    await this.#connecting?.catch(() => undefined);
  }

  #connect(): Promise<Client> {
    if (this.#closed) {
      return Promise.reject(
        new ToolExecutionError("mcp_unavailable", `MCP server "${this.name}" is shutting down.`, false),
      );
    }
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#open().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #open(): Promise<Client> {
    const client = new Client(
      { name: "waddle", version: this.#options.clientVersion },
      // Form elicitation becomes a Waddle pause; sampling is answered by the run's agent LLM (mcp-tool.ts).
      { capabilities: { elicitation: {}, sampling: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, (request) => this.#onElicit(request.params));
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      this.#onSample(request.params, extra.signal),
    );
    client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      const { progressToken, progress, total, message } = notification.params;
      this.#progress.get(String(progressToken))?.({
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      });
    });
    client.onclose = () => this.#onClosed(client);
    // A Streamable HTTP server that dies mid-call ends the call's response stream: without this the call
    // would wait for its timeout. (A dropped idle GET stream is left to the SDK, which reconnects it.) A
    // legacy SSE stream that breaks is a lost session: its next call connects again.
    client.onerror = (error) => {
      const broken =
        this.transport === "sse"
          ? this.#client === client
          : this.#inFlight.size > 0 && error.message.startsWith("SSE stream disconnected");
      if (broken) this.#drop(client, error.message);
    };
    const timeout = this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.#stderrTail = "";
    this.#opening = client;
    try {
      await client.connect(this.#createTransport(), { timeout });
      const tools = await listAllTools(client, timeout);
      if (this.#closed) throw new Error("the server is shutting down");
      this.#client = client;
      this.#tools = tools.map(toToolInfo);
      this.#status = "connected";
      this.#error = undefined;
      this.#options.logger.info("MCP server connected", { server: this.name, tools: tools.length });
      return client;
    } catch (error) {
      await client.close().catch(() => undefined);
      if (this.#closed)
        throw new ToolExecutionError("mcp_unavailable", `MCP server "${this.name}" is shutting down.`);
      const message = this.#options.redactor.redactText(
        `MCP server "${this.name}" is unavailable: ${describeError(error)}${this.#getStderrNote()}`,
      );
      this.#status = "error";
      this.#error = message;
      this.#options.logger.warn("MCP server unavailable", { server: this.name, error: message });
      if (error instanceof ToolExecutionError) {
        throw new ToolExecutionError(error.code, message, error.retryable, { server: this.name });
      }
      throw new ToolExecutionError("mcp_unavailable", message, true, { server: this.name });
    } finally {
      this.#opening = undefined;
    }
  }

  /** The one call in flight, which a server's request during a call belongs to; else why there is none. */
  #getAskingCall(): McpCallHooks | string {
    if (this.#inFlight.size === 1) return [...this.#inFlight][0]!;
    return this.#inFlight.size === 0
      ? "no call is in flight"
      : `${this.#inFlight.size} calls are in flight and MCP does not say which one asks`;
  }

  async #onElicit(params: ElicitRequestFormParams | { mode: "url" }): Promise<ElicitResult> {
    const call = this.#getAskingCall();
    const refuse = (reason: string): ElicitResult => {
      this.#options.logger.warn("MCP elicitation declined", { server: this.name, reason });
      return { action: "decline" };
    };
    if (params.mode === "url") return refuse("Waddle answers form elicitations only");
    if (typeof call === "string") return refuse(call);
    if (call.onElicit === undefined) return refuse("this call cannot pause for a person");
    return call.onElicit(params as ElicitRequestFormParams);
  }

  async #onSample(params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult> {
    const call = this.#getAskingCall();
    const reason =
      typeof call === "string"
        ? call
        : call.onSample === undefined
          ? "this call has no LLM to ask"
          : undefined;
    if (reason !== undefined || typeof call === "string" || call.onSample === undefined) {
      this.#options.logger.warn("MCP sampling refused", { server: this.name, reason });
      throw new McpError(ErrorCode.InvalidRequest, `Waddle cannot answer this sampling request: ${reason}.`);
    }
    return call.onSample(params, signal);
  }

  #createTransport(): Transport {
    const { config, secrets } = this.#options;
    if (config.transport !== "stdio") {
      const headers = resolveMcpConfigValues(config.headers, { secrets, server: this.name });
      // Both HTTP transports go through the http tools' allow-list and pinned addresses.
      const fetch = createPinnedFetch({ allowList: this.#options.allowList, lookup: this.#options.lookup });
      return config.transport === "sse"
        ? new SSEClientTransport(new URL(config.url), { requestInit: { headers }, fetch })
        : new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers }, fetch });
    }
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      // Added to the SDK's small default environment (PATH, HOME, …): Waddle's own keys never reach it.
      env: resolveMcpConfigValues(config.env, { secrets, server: this.name }),
      stderr: "pipe",
      ...(config.cwd ? { cwd: config.cwd } : {}),
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      this.#stderrTail = (this.#stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
    });
    return transport;
  }

  #getStderrNote(): string {
    const tail = this.#stderrTail.trim().split("\n").slice(-5).join(" | ").slice(-500);
    return tail ? ` (stderr: ${tail})` : "";
  }

  #onClosed(client: Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    if (this.#closed) return;
    this.#status = "error";
    this.#error = this.#options.redactor.redactText(
      `MCP server "${this.name}" closed the connection${this.#getStderrNote()}; it is connected again on the next call.`,
    );
    this.#options.logger.warn("MCP server connection closed", { server: this.name });
  }

  #drop(client: Client, reason: string): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#status = "error";
    this.#error = this.#options.redactor.redactText(
      `MCP server "${this.name}" failed: ${reason}; it is connected again on the next call.`,
    );
    void client.close().catch(() => undefined);
  }
}

async function listAllTools(client: Client, timeout: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
    tools.push(...listed.tools);
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

function toToolInfo(tool: Tool): McpToolInfo {
  const sideEffects = getAnnotatedSideEffects(tool.annotations);
  const unavailable = getUnavailableReason(tool);
  return {
    name: tool.name,
    desc: tool.description ?? tool.title ?? tool.annotations?.title ?? "",
    argsSchema: withoutDialect(tool.inputSchema),
    ...(tool.outputSchema ? { outSchema: withoutDialect(tool.outputSchema) } : {}),
    ...(tool.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
    ...(sideEffects === undefined ? {} : { sideEffects }),
    ...(unavailable === undefined ? {} : { unavailable }),
  };
}

/** A listed schema without its `$schema` dialect line, which a spec does not need. */
function withoutDialect(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** True for failures of the connection itself (closed, session gone, unreachable), not of one request. */
function isConnectionFailure(error: unknown): boolean {
  if (error instanceof ToolExecutionError) return false;
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  return true;
}

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
