import { randomUUID } from "node:crypto";
import { AgentSpec, type AgentSpecInput } from "@waddle/protocol";
import { isGuardCheckDefinition, type GuardCheckDefinition, type ToolDefinition } from "@waddle/planner";
import { readRunSettings, type RunSettings } from "../run-settings.js";
import { createRunSetup, type RunSetup } from "../run-setup.js";
import { createDefaultPlannerFactory } from "../runs/default-planner-factory.js";
import type { CreatedPlanner } from "../runs/planner-factory.js";
import { readMcpServersConfig } from "../mcp-client/mcp-servers-config.js";
import { createLogger, type Logger } from "../shared/logger.js";
import { MemoryStore } from "../store/memory-store.js";
import { isToolDefinition } from "../tools/tool-registry.js";

export interface AgentRuntimeOptions {
  /** The agent (parsed with `AgentSpec`). */
  spec: AgentSpec | AgentSpecInput;
  /** The agents its agent tools run, and theirs (parsed with `AgentSpec`). */
  subagents?: readonly (AgentSpec | AgentSpecInput)[];
  /** Module tools and guard checks: `defineTool` and `defineGuardCheck` results, or whole modules whose exports include them. */
  moduleTools?: readonly unknown[];
  /** Where keys, `WADDLE_SECRET_*`, `WADDLE_HTTP_ALLOW`, `WADDLE_MCP_SERVERS`… are read; `process.env` by default. */
  env?: NodeJS.ProcessEnv;
  /** Hosts http tools may call, besides `WADDLE_HTTP_ALLOW`. */
  httpAllow?: readonly string[];
  /** LLM endpoints (origins) the specs may send keys to, besides `OPENAI_BASE_URL`'s and `WADDLE_LLM_ALLOW`. */
  llmAllow?: readonly string[];
  /** Variables the specs' `apiKeyEnv` may name, besides OPENAI_API_KEY and `WADDLE_LLM_KEY_ENVS`. */
  llmKeyEnvs?: readonly string[];
  /** Secret values by name (what `{"secret": "NAME"}` headers use), besides `WADDLE_SECRET_<NAME>`. */
  secrets?: Readonly<Record<string, string>>;
  /** MCP servers in the `{"mcpServers": {…}}` format; `WADDLE_MCP_SERVERS` when unset. */
  mcpServers?: unknown;
  /** Defaults to a silent logger that redacts the secrets. */
  logger?: Logger;
}

/** A planner built the way the server builds one, for an exported agent running in its caller's process. */
export interface AgentRuntime {
  readonly spec: AgentSpec;
  /** A new planner for one run (a `ReactPlanner`: `run`, `resume`). */
  createPlanner(): Promise<CreatedPlanner>;
  /** Stops the MCP servers it started. */
  close(): Promise<void>;
}

/** Every `defineTool` result among `values`, looking one level into modules and arrays. */
export function collectToolDefinitions(values: readonly unknown[]): ToolDefinition[] {
  return collectDefinitions(values, isToolDefinition);
}

/** Every `defineGuardCheck` result among `values`, looking one level into modules and arrays. */
export function collectGuardCheckDefinitions(values: readonly unknown[]): GuardCheckDefinition[] {
  return collectDefinitions(values, isGuardCheckDefinition);
}

function collectDefinitions<T>(
  values: readonly unknown[],
  isDefinition: (value: unknown) => value is T,
): T[] {
  const found = new Set<T>();
  const visit = (value: unknown, depth: number) => {
    if (isDefinition(value)) found.add(value);
    else if (Array.isArray(value) && depth < 2) value.forEach((entry) => visit(entry, depth + 1));
    else if (value !== null && typeof value === "object" && depth < 1) {
      Object.values(value as Record<string, unknown>).forEach((entry) => visit(entry, depth + 1));
    }
  };
  values.forEach((value) => visit(value, 0));
  return [...found];
}

function getSettings(options: AgentRuntimeOptions, env: NodeJS.ProcessEnv): RunSettings {
  const settings = readRunSettings(env);
  const mcpServers =
    options.mcpServers === undefined
      ? settings.mcpServers
      : readMcpServersConfig(JSON.stringify(options.mcpServers), process.cwd());
  return {
    ...settings,
    httpAllow: [...settings.httpAllow, ...(options.httpAllow ?? [])],
    llmAllow: [...settings.llmAllow, ...(options.llmAllow ?? [])],
    llmKeyEnvs: [...settings.llmKeyEnvs, ...(options.llmKeyEnvs ?? [])],
    secrets: { ...settings.secrets, ...options.secrets },
    ...(mcpServers && mcpServers.length > 0 ? { mcpServers } : {}),
  };
}

/**
 * Builds planners for an agent with the server's own parts (`createRunSetup`, `createDefaultPlannerFactory`):
 * module tools from the given modules, http tools through the allow-list, llm tools through the endpoint
 * policy, mcp tools from the `mcpServers` configuration, agent tools from `subagents`. Secrets come from the
 * environment or from `secrets`, never from the spec. Throws `ConfigError` for settings it cannot use.
 */
export async function createAgentRuntime(options: AgentRuntimeOptions): Promise<AgentRuntime> {
  const env = options.env ?? process.env;
  const spec = AgentSpec.parse(options.spec);
  const settings = getSettings(options, env);
  const setup: RunSetup = await createRunSetup({
    env,
    settings,
    exampleToolsDir: null,
    ...(options.logger ? { logger: options.logger } : { logLevel: "silent" as const }),
  });
  const logger = options.logger ?? createLogger({ level: "silent", redactor: setup.redactor });
  for (const definition of collectToolDefinitions(options.moduleTools ?? [])) {
    setup.registry.register(definition, "exported module");
  }
  for (const definition of collectGuardCheckDefinitions(options.moduleTools ?? [])) {
    setup.registry.registerGuardCheck(definition, "exported module");
  }
  const store = new MemoryStore();
  for (const input of options.subagents ?? []) {
    const subagent = AgentSpec.parse(input);
    if (subagent.id !== spec.id) await store.createAgent({ spec: subagent });
  }
  await store.createAgent({ spec });
  const create = createDefaultPlannerFactory({ ...setup, logger, store });
  return {
    spec,
    createPlanner: async () => {
      setup.llmPolicy.assertSpec(spec);
      setup.mcp.assertSpec(spec);
      return create({ spec, runId: `run-${randomUUID()}`, agentVersion: 1 });
    },
    close: async () => {
      await setup.mcp.close();
      await store.close();
    },
  };
}
