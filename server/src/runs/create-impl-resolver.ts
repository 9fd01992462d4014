import type { LlmConfig, ToolSpec } from "@waddle/protocol";
import type { ImplResolver, LlmClient, ToolRunner } from "@waddle/planner";
import type { McpClientManager } from "../mcp-client/mcp-client-manager.js";
import { createMcpToolRunner } from "../mcp-client/mcp-tool.js";
import { createAgentToolRunner, type RunSubagent } from "../tools/agent-tool.js";
import type { HostAllowList } from "../tools/host-allow-list.js";
import { createHttpToolRunner } from "../tools/http-tool.js";
import { createA2aToolRunner } from "../tools/a2a-tool.js";
import { createLlmToolRunner } from "../tools/llm-tool.js";
import type { HostLookup } from "../tools/resolve-allowed-address.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { withToolTrace, type ToolTracing } from "../tools/tool-trace-scope.js";

export interface ImplResolverOptions {
  allowList: HostAllowList;
  secrets: Readonly<Record<string, string>>;
  redactor: SecretRedactor;
  /** The LLM of an `llm` tool: its own `impl.llm` (at `path` in the spec), else the agent's (`llm`). */
  createLlm: (config: LlmConfig, path: string) => LlmClient;
  agentLlm: LlmConfig;
  runSubagent: RunSubagent;
  /** How http tools resolve host names; the system resolver by default. */
  lookup?: HostLookup;
  /** The MCP servers of `WADDLE_MCP_SERVERS`; without it every mcp tool fails as not configured. */
  mcp?: McpClientManager;
  /** Tracing on: http and MCP calls send their tool span's `traceparent`. */
  toolTracing?: ToolTracing;
}

/**
 * Supplies the runners of the tool kinds the server runs: `http`, `llm`, `agent` and `mcp` (the planner runs
 * `mock` itself and `module` tools from the registry it is given).
 */
export function createImplResolver(options: ImplResolverOptions): ImplResolver {
  return (tool: ToolSpec) => {
    const impl = tool.impl;
    switch (impl.kind) {
      case "http":
        return traced(
          options.toolTracing,
          createHttpToolRunner({
            tool: { ...tool, impl },
            allowList: options.allowList,
            secrets: options.secrets,
            redactor: options.redactor,
            ...(options.lookup ? { lookup: options.lookup } : {}),
          }),
        );
      case "llm":
        return createLlmToolRunner({
          tool: { ...tool, impl },
          llm: impl.llm
            ? options.createLlm(impl.llm, `tool "${tool.name}" impl.llm`)
            : options.createLlm(options.agentLlm, "llm"),
          redactor: options.redactor,
        });
      case "agent":
        return createAgentToolRunner({ tool: { ...tool, impl }, runSubagent: options.runSubagent });
      case "mcp":
        return traced(
          options.toolTracing,
          createMcpToolRunner({
            tool: { ...tool, impl },
            connection: options.mcp?.get(impl.server),
            redactor: options.redactor,
            // A server's sampling requests during a call are answered by the agent's own LLM.
            samplingLlm: () => options.createLlm(options.agentLlm, "llm"),
          }),
        );
      case "a2a":
        return traced(
          options.toolTracing,
          createA2aToolRunner({
            tool: { ...tool, impl },
            allowList: options.allowList,
            secrets: options.secrets,
            redactor: options.redactor,
            ...(options.lookup ? { lookup: options.lookup } : {}),
          }),
        );
      default:
        return undefined;
    }
  };
}

/** The runner with its call's trace context in scope, when tracing is on. */
function traced(tracing: ToolTracing | undefined, runner: ToolRunner): ToolRunner {
  if (!tracing) return runner;
  return (args, context) => withToolTrace(tracing, context, () => runner(args, context));
}
