import {
  MCP_TEXT_RESULT_SCHEMA,
  type AgentSpec,
  type JsonSchema,
  type McpServerInfo,
  type SideEffect,
  type ToolSpec,
} from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import type { HostAllowList } from "../tools/host-allow-list.js";
import { systemLookup, type HostLookup } from "../tools/resolve-allowed-address.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { McpConnection } from "./mcp-connection.js";
import type { McpServerConfig } from "./mcp-servers-config.js";

/** What a run's failure needs to know of the MCP tools: the side effects their annotations give. */
export interface McpSideEffectsSource {
  getListedSideEffects(server: string, tool: string): SideEffect | undefined;
}

export interface McpClientManagerOptions {
  /** The servers of `WADDLE_MCP_SERVERS`: the only ones ever started or called. */
  servers: readonly McpServerConfig[];
  secrets: Readonly<Record<string, string>>;
  allowList: HostAllowList;
  redactor: SecretRedactor;
  logger: Logger;
  /** How Streamable HTTP servers' host names are resolved; the system resolver by default. */
  lookup?: HostLookup;
  clientVersion?: string;
  connectTimeoutMs?: number;
}

/**
 * The MCP servers the operator listed, each an `McpConnection` made on first use. Runs reach a server by
 * its name only; a spec naming another one is refused before its run starts.
 */
export class McpClientManager implements McpSideEffectsSource {
  readonly #connections = new Map<string, McpConnection>();

  constructor(options: McpClientManagerOptions) {
    for (const config of options.servers) {
      this.#connections.set(
        config.name,
        new McpConnection({
          config,
          secrets: options.secrets,
          allowList: options.allowList,
          lookup: options.lookup ?? systemLookup,
          redactor: options.redactor,
          logger: options.logger,
          clientVersion: options.clientVersion ?? "0.0.0",
          ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
        }),
      );
    }
  }

  get names(): string[] {
    return [...this.#connections.keys()];
  }

  get(name: string): McpConnection | undefined {
    return this.#connections.get(name);
  }

  /** The side effects a tool's annotations give, from its server's last listing (nothing is connected). */
  getListedSideEffects(server: string, tool: string): SideEffect | undefined {
    return this.#connections
      .get(server)
      ?.getInfo()
      .tools.find((info) => info.name === tool)?.sideEffects;
  }

  /** Every server with its status and tools; servers not connected are connected first (in parallel). */
  async listServers(): Promise<McpServerInfo[]> {
    const connections = [...this.#connections.values()];
    await Promise.all(connections.map((connection) => connection.listTools().catch(() => undefined)));
    return connections.map((connection) => connection.getInfo());
  }

  /**
   * Refuses (422 `mcp_server_not_configured`) a spec whose mcp tools name a server `WADDLE_MCP_SERVERS`
   * does not list, before anything runs.
   */
  assertSpec(spec: AgentSpec): void {
    const refused = spec.tools.flatMap((tool, index) =>
      tool.impl.kind === "mcp" && !this.#connections.has(tool.impl.server)
        ? [{ tool: tool.name, server: tool.impl.server, path: `tools[${index}].impl.server` }]
        : [],
    );
    const first = refused[0];
    if (first === undefined) return;
    const listed = this.names.length > 0 ? `it lists ${this.names.join(", ")}` : "it lists none";
    throw new ApiError(
      "mcp_server_not_configured",
      `Tool "${first.tool}" uses the MCP server "${first.server}", which WADDLE_MCP_SERVERS does not list (${listed}): ` +
        `add it there and restart the server, or change the tool.`,
      { refusals: refused },
    );
  }

  /**
   * The spec as its mcp tools' servers list them, at every run: args and out schemas taken from the listing
   * where the spec leaves them empty, and the side effects the tool's annotations give (`readOnlyHint`,
   * `destructiveHint`, `openWorldHint`; see `getAnnotatedSideEffects`) over whatever the spec saved, so that
   * approvals, auto-seq and recovery follow what the server says its tool does. A server that cannot be
   * reached leaves its tools as they are: their calls fail with a failure observation that says why.
   */
  async fillSchemas(spec: AgentSpec): Promise<AgentSpec> {
    if (!spec.tools.some((tool) => tool.impl.kind === "mcp")) return spec;
    const tools = await Promise.all(spec.tools.map((tool) => this.#fillTool(tool)));
    return tools.every((tool, index) => tool === spec.tools[index]) ? spec : { ...spec, tools };
  }

  /** Closes every client and ends the stdio servers' processes. */
  async close(): Promise<void> {
    await Promise.all([...this.#connections.values()].map((connection) => connection.close()));
  }

  async #fillTool(tool: ToolSpec): Promise<ToolSpec> {
    const impl = tool.impl;
    if (impl.kind !== "mcp") return tool;
    const connection = this.#connections.get(impl.server);
    if (connection === undefined) return tool;
    const listed = (await connection.listTools().catch(() => [])).find((info) => info.name === impl.tool);
    if (listed === undefined) return tool;
    const emptyArgs = isEmptySchema(tool.argsSchema);
    const emptyOut = isEmptySchema(tool.outSchema);
    const sideEffects = listed.sideEffects ?? tool.sideEffects;
    if (!emptyArgs && !emptyOut && sideEffects === tool.sideEffects) return tool;
    return {
      ...tool,
      desc: tool.desc || listed.desc,
      sideEffects,
      ...(emptyArgs ? { argsSchema: listed.argsSchema } : {}),
      ...(emptyOut ? { outSchema: listed.outSchema ?? { ...MCP_TEXT_RESULT_SCHEMA } } : {}),
    };
  }
}

/** `{}` or `{"type": "object", "properties": {}}`: a schema the spec left for the server to fill. */
export function isEmptySchema(schema: JsonSchema): boolean {
  const keys = Object.keys(schema);
  if (keys.some((key) => key !== "type" && key !== "properties")) return false;
  if (schema.type !== undefined && schema.type !== "object") return false;
  const properties = schema.properties;
  return (
    properties === undefined ||
    (properties !== null && typeof properties === "object" && Object.keys(properties).length === 0)
  );
}
