import type { AgentSpec, LlmConfig } from "@waddle/protocol";
import {
  createLlmClient,
  OfflineModel,
  ReactPlanner,
  type LlmClient,
  type PriceTable,
} from "@waddle/planner";
import { BoundedErrorLlm } from "../llm/bounded-error-llm.js";
import { DEFAULT_LLM_KEY_ENV, type LlmEndpointPolicy } from "../llm/llm-endpoint-policy.js";
import type { Logger } from "../shared/logger.js";
import type { McpClientManager } from "../mcp-client/mcp-client-manager.js";
import { PausedStateStore } from "../store/paused-state-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { RunSubagent } from "../tools/agent-tool.js";
import { createImplResolver } from "./create-impl-resolver.js";
import type { HostAllowList } from "../tools/host-allow-list.js";
import type { HostLookup } from "../tools/resolve-allowed-address.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { ToolExecutionError } from "../tools/tool-execution-error.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { CreatePlannerOptions, PlannerFactory } from "./planner-factory.js";
import type { LiveRunSettings } from "../credentials/credential-vault.js";
import type { ToolTracing } from "../tools/tool-trace-scope.js";

/** How deep agent tools may nest subagents (a run is depth 0). */
export const MAX_AGENT_DEPTH = 3;

export interface DefaultPlannerFactoryOptions {
  store: WaddleStore;
  registry: ToolRegistry;
  /** Where keys are read: OPENAI_API_KEY / OPENAI_BASE_URL, or an agent's `apiKeyEnv`. */
  env: NodeJS.ProcessEnv;
  /** Which LLM endpoints and key variables specs may use (WADDLE_LLM_ALLOW, WADDLE_LLM_KEY_ENVS). */
  llmPolicy: LlmEndpointPolicy;
  allowList: HostAllowList;
  secrets: Readonly<Record<string, string>>;
  redactor: SecretRedactor;
  logger: Logger;
  /** Prices that extend the built-in table (WADDLE_PRICES); a spec's own `llm.price` wins. */
  priceTable?: PriceTable;
  /** How http tools resolve host names; the system resolver by default (tests inject one). */
  lookup?: HostLookup;
  maxAgentDepth?: number;
  /** The MCP servers of `WADDLE_MCP_SERVERS`; without it a spec with mcp tools is refused. */
  mcp?: McpClientManager;
  /**
   * The settings of each run as they are when it starts (stored credentials and allow-list entries added
   * to the environment's); without it, `llmPolicy`, `allowList` and `secrets` hold for every run.
   */
  getRunSettings?: () => Promise<LiveRunSettings>;
  /** Tracing on: http and MCP calls send their tool span's `traceparent`. */
  toolTracing?: ToolTracing;
}

/** The server's settings a model client is built from (`createLlmFor`). */
export type ServerLlmSettings = Pick<
  DefaultPlannerFactoryOptions,
  "env" | "llmPolicy" | "redactor" | "logger" | "priceTable" | "getRunSettings"
>;

/**
 * Builds model clients as a run builds them: with the server's endpoint policy and keys as `live` says
 * (the caller reads them as its work starts, so that a credential or host added a moment ago counts).
 * `offline`: the person chose the offline model, so nothing is checked or sent.
 */
export function createLlmFor(
  options: ServerLlmSettings,
  live: LiveRunSettings | undefined,
  extra: { offline?: boolean } = {},
): (config: LlmConfig, path: string) => LlmClient {
  const policy = live?.llmPolicy ?? options.llmPolicy;
  return (config, path) =>
    createServerLlm({
      config,
      path,
      env: options.env,
      policy,
      redactor: options.redactor,
      logger: options.logger,
      ...(options.priceTable ? { priceTable: options.priceTable } : {}),
      ...(live ? { getLlmKey: live.getLlmKey } : {}),
      ...(extra.offline ? { offline: true } : {}),
    });
}

/**
 * The LLM client for a config: the embedded offline model for provider `offline` or when the person chose
 * it (`offline`), and also for provider `openai` when its key is not set (so that every agent runs out of
 * the box; the run says it is offline). The key is the stored or environment credential `llm.credential`
 * names (`getLlmKey`), else the variable `apiKeyEnv` names, else OPENAI_API_KEY (from the environment, or
 * a stored credential of that name). An endpoint or key variable the policy does not allow throws
 * `LlmEndpointError` before any client exists; a remote client's errors are scrubbed and bounded.
 */
export function createServerLlm(options: {
  config: LlmConfig;
  /** Where the config sits in its spec, for messages (`llm`, `tools[2].impl.llm`, …). */
  path: string;
  env: NodeJS.ProcessEnv;
  policy: LlmEndpointPolicy;
  redactor: SecretRedactor;
  logger: Logger;
  priceTable?: PriceTable;
  /** A credential's key and endpoint by name (`CredentialVault`); without it keys come from `env` only. */
  getLlmKey?: LiveRunSettings["getLlmKey"];
  /** The person chose the offline model for this run: nothing is checked or sent. */
  offline?: boolean;
}): LlmClient {
  const { config, env } = options;
  if (options.offline) return new OfflineModel();
  options.policy.assertAllowed(config, options.path);
  if (config.provider === "offline") return new OfflineModel();
  const credential = config.credential ?? (config.apiKeyEnv ? undefined : DEFAULT_LLM_KEY_ENV);
  const found = credential === undefined ? undefined : options.getLlmKey?.(credential);
  const openai = (apiKey?: string) => ({
    ...(options.priceTable ? { priceTable: options.priceTable } : {}),
    ...(apiKey ? { apiKey } : {}),
  });
  if (found) {
    const baseUrl = config.baseUrl ?? found.baseUrl;
    const client = createLlmClient(baseUrl ? { ...config, baseUrl } : config, {
      env,
      openai: openai(found.key),
    });
    return new BoundedErrorLlm(client, options.redactor);
  }
  const keyName = config.apiKeyEnv ?? DEFAULT_LLM_KEY_ENV;
  if (config.credential !== undefined || !env[keyName]) {
    options.logger.info("no API key: using the offline model", {
      model: config.model,
      ...(config.credential ? { credential: config.credential } : { keyEnv: keyName }),
    });
    return new OfflineModel();
  }
  const client = createLlmClient(config, { env, openai: openai() });
  return new BoundedErrorLlm(client, options.redactor);
}

/**
 * Clients of the spec's router candidates that have a key; the others are left to the planner, which offers
 * a candidate on the main client's endpoint by its model name.
 */
function createCandidateLlms(
  spec: AgentSpec,
  options: {
    env: NodeJS.ProcessEnv;
    llmFor: (config: LlmConfig, path: string) => LlmClient;
    getLlmKey?: LiveRunSettings["getLlmKey"] | undefined;
  },
): Map<string, LlmClient> {
  const clients = new Map<string, LlmClient>();
  (spec.candidateLlms ?? []).forEach((config, index) => {
    if (config.provider !== "openai") return;
    const hasKey = config.credential
      ? options.getLlmKey?.(config.credential) !== undefined
      : Boolean(options.env[config.apiKeyEnv ?? DEFAULT_LLM_KEY_ENV]) ||
        (!config.apiKeyEnv && options.getLlmKey?.(DEFAULT_LLM_KEY_ENV) !== undefined);
    if (!hasKey) return;
    clients.set(config.id, options.llmFor(config, `candidateLlms[${index}]`));
  });
  return clients;
}

/**
 * Builds each run's `ReactPlanner` from its spec: LLM clients from the spec (every endpoint checked against
 * the server's policy first, llm guards' own included), the registered module tools and guard checks, the
 * server's tool kinds (http, llm, agent, mcp,
 * whose empty schemas are filled from the MCP servers' listings), the server's price table, and paused
 * states in the store.
 */
export function createDefaultPlannerFactory(options: DefaultPlannerFactoryOptions): PlannerFactory {
  const maxDepth = options.maxAgentDepth ?? MAX_AGENT_DEPTH;

  const create: PlannerFactory = async (request: CreatePlannerOptions) => {
    // Read as the run starts: a credential or host added a moment ago counts, on every instance.
    const live = options.getRunSettings ? await options.getRunSettings() : undefined;
    const llmPolicy = live?.llmPolicy ?? options.llmPolicy;
    const llmFor = createLlmFor(options, live, request.offline ? { offline: true } : {});
    // Every endpoint of the spec at once, so that a refused one fails the run before anything is sent.
    if (!request.offline) llmPolicy.assertSpec(request.spec);
    const filled = await fillMcpSchemas(request.spec, options.mcp);
    const agentLlm = llmFor(filled.llm, "llm");
    const own = {
      spec: filled,
      llm: agentLlm,
      moduleTools: new Map(Object.entries(options.registry.getDefinitions())),
      resolveImpl: createImplResolver({
        allowList: live?.allowList ?? options.allowList,
        secrets: live?.secrets ?? options.secrets,
        redactor: options.redactor,
        createLlm: llmFor,
        agentLlm: filled.llm,
        runSubagent: createSubagentRunner({ request, create, store: options.store, maxDepth }),
        ...(options.lookup ? { lookup: options.lookup } : {}),
        ...(options.mcp ? { mcp: options.mcp } : {}),
        ...(options.toolTracing ? { toolTracing: options.toolTracing } : {}),
      }),
    };
    const { spec, llm, moduleTools, resolveImpl } = request.prepare ? request.prepare(own) : own;
    const planner = ReactPlanner.fromSpec(spec, {
      llm,
      ...(spec.summarizerLlm ? { summarizerLlm: llmFor(spec.summarizerLlm, "summarizerLlm") } : {}),
      ...(spec.routerLlm ? { routerLlm: llmFor(spec.routerLlm, "routerLlm") } : {}),
      candidateLlms: request.offline
        ? new Map()
        : createCandidateLlms(spec, { env: options.env, llmFor, getLlmKey: live?.getLlmKey }),
      moduleTools,
      ...(resolveImpl ? { resolveImpl } : {}),
      guardChecks: options.registry.getGuardChecks(),
      // An llm guard's own model is built as every other model of the spec: the policy, stored keys, offline.
      createGuardJudge: (check) => {
        if (check.llm === undefined) return undefined;
        const index = spec.guards.findIndex((guard) => guard.check === check);
        return llmFor(check.llm, `guards[${index}].check.llm`);
      },
      stateStore: new PausedStateStore(options.store, request.runId, request.fence),
      agentId: spec.id,
      ...(request.agentVersion ? { agentVersion: request.agentVersion } : {}),
      ...(options.priceTable ? { priceTable: options.priceTable } : {}),
    });
    return { planner, offline: llm.offline === true };
  };
  return create;
}

/** Refuses mcp tools of unlisted servers, and fills the empty schemas of the others from their listings. */
async function fillMcpSchemas(spec: AgentSpec, mcp: McpClientManager | undefined): Promise<AgentSpec> {
  if (!spec.tools.some((tool) => tool.impl.kind === "mcp")) return spec;
  if (mcp === undefined) {
    throw new ToolExecutionError(
      "mcp_server_not_configured",
      "This agent has mcp tools, but no MCP servers are configured here (WADDLE_MCP_SERVERS).",
    );
  }
  mcp.assertSpec(spec);
  return mcp.fillSchemas(spec);
}

/** Runs another saved agent to its end for an agent tool, refusing cycles and nesting past `maxDepth` (also for tool tests). */
export function createSubagentRunner(options: {
  request: CreatePlannerOptions;
  create: PlannerFactory;
  store: WaddleStore;
  maxDepth: number;
}): RunSubagent {
  const { request, maxDepth } = options;
  const depth = request.depth ?? 0;
  const chain = [...(request.agentChain ?? []), request.spec.id];
  return async (call) => {
    if (depth + 1 > maxDepth) {
      throw new ToolExecutionError(
        "agent_depth_exceeded",
        `Subagents nest at most ${maxDepth} deep; "${call.agentId}" would be deeper.`,
      );
    }
    if (chain.includes(call.agentId)) {
      throw new ToolExecutionError(
        "agent_cycle",
        `Agent "${call.agentId}" is already running in this chain (${chain.join(" → ")}).`,
      );
    }
    const record = await options.store.getAgent(call.agentId);
    if (!record)
      throw new ToolExecutionError(
        "unknown_agent",
        `No saved agent "${call.agentId}": save it before using it as a tool.`,
      );
    const subSpec = call.maxIters
      ? { ...record.spec, planner: { ...record.spec.planner, maxIters: call.maxIters } }
      : record.spec;
    const { planner } = await options.create({
      spec: subSpec,
      runId: `${request.runId}-sub`,
      depth: depth + 1,
      agentChain: chain,
      agentVersion: record.version,
      ...(request.offline ? { offline: true } : {}),
    });
    // Every model call of the subagent is counted against the parent run as it happens.
    const outcome = await planner.run(call.query, {
      toolContext: { ...call.toolContext },
      signal: call.signal,
      onEvent: (event) => {
        if (event.type !== "llm_call") return;
        const { provider, model, promptTokens, completionTokens, reasoningTokens, costUsd, latencyMs } =
          event.data;
        call.reportUsage({
          provider,
          model,
          promptTokens,
          completionTokens,
          reasoningTokens,
          costUsd,
          latencyMs,
          offline: event.data.offline,
        });
      },
    });
    if (outcome.kind === "pause") {
      // Nobody can answer a subagent's pause: its saved state would stay in the store for good.
      await options.store.deletePausedState(outcome.resumeToken);
      throw new ToolExecutionError(
        "subagent_paused",
        `Subagent "${call.agentId}" paused (${outcome.reason}); subagents cannot wait for approval.`,
      );
    }
    return { ...outcome.payload, reason: outcome.reason };
  };
}
