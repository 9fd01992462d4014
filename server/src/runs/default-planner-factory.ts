import type { LlmConfig } from "@waddle/protocol";
import { createLlmClient, OfflineModel, ReactPlanner, type LlmClient } from "@waddle/planner";
import type { Logger } from "../logger.js";
import { PausedStateStore } from "../store/paused-state-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { RunSubagent } from "../tools/agent-tool.js";
import { createImplResolver } from "../tools/create-impl-resolver.js";
import type { HostAllowList } from "../tools/host-allow-list.js";
import type { SecretRedactor } from "../tools/secret-redactor.js";
import { ToolExecutionError } from "../tools/tool-execution-error.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { CreatePlannerOptions, PlannerFactory } from "./planner-factory.js";

/** How deep agent tools may nest subagents (a run is depth 0). */
export const MAX_AGENT_DEPTH = 3;

export interface DefaultPlannerFactoryOptions {
  store: WaddleStore;
  registry: ToolRegistry;
  /** Where keys are read: OPENAI_API_KEY / OPENAI_BASE_URL, or an agent's `apiKeyEnv`. */
  env: NodeJS.ProcessEnv;
  allowList: HostAllowList;
  secrets: Readonly<Record<string, string>>;
  redactor: SecretRedactor;
  logger: Logger;
  maxAgentDepth?: number;
}

/**
 * The LLM client for a config: the embedded offline model for provider `offline`, and also for provider
 * `openai` when its key is not set (so that every agent runs out of the box; the run says it is offline).
 */
export function createServerLlm(options: {
  config: LlmConfig;
  env: NodeJS.ProcessEnv;
  logger: Logger;
}): LlmClient {
  const { config, env } = options;
  if (config.provider === "offline") return new OfflineModel();
  const keyName = config.apiKeyEnv ?? "OPENAI_API_KEY";
  if (!env[keyName]) {
    options.logger.info("no API key: using the offline model", { model: config.model, keyEnv: keyName });
    return new OfflineModel();
  }
  return createLlmClient(config, { env });
}

/**
 * Builds each run's `ReactPlanner` from its spec: LLM clients from the spec, the registered module tools,
 * the server's tool kinds (http, llm, agent), and paused states in the store.
 */
export function createDefaultPlannerFactory(options: DefaultPlannerFactoryOptions): PlannerFactory {
  const maxDepth = options.maxAgentDepth ?? MAX_AGENT_DEPTH;
  const llmFor = (config: LlmConfig) => createServerLlm({ config, env: options.env, logger: options.logger });

  const create: PlannerFactory = async (request: CreatePlannerOptions) => {
    const { spec } = request;
    const depth = request.depth ?? 0;
    const chain = [...(request.agentChain ?? []), spec.id];
    const runSubagent: RunSubagent = async (call) => {
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
      const { planner } = await create({
        spec: subSpec,
        runId: `${request.runId}-sub`,
        depth: depth + 1,
        agentChain: chain,
        agentVersion: record.version,
      });
      const outcome = await planner.run(call.query, {
        toolContext: { ...call.toolContext },
        signal: call.signal,
      });
      if (outcome.kind === "pause") {
        throw new ToolExecutionError(
          "subagent_paused",
          `Subagent "${call.agentId}" paused (${outcome.reason}); subagents cannot wait for approval.`,
        );
      }
      return { ...outcome.payload, reason: outcome.reason };
    };
    const llm = llmFor(spec.llm);
    const planner = ReactPlanner.fromSpec(spec, {
      llm,
      ...(spec.summarizerLlm ? { summarizerLlm: llmFor(spec.summarizerLlm) } : {}),
      ...(spec.routerLlm ? { routerLlm: llmFor(spec.routerLlm) } : {}),
      moduleTools: new Map(Object.entries(options.registry.getDefinitions())),
      resolveImpl: createImplResolver({
        allowList: options.allowList,
        secrets: options.secrets,
        redactor: options.redactor,
        createLlm: llmFor,
        agentLlm: spec.llm,
        runSubagent,
      }),
      stateStore: new PausedStateStore(options.store, request.runId),
      agentId: spec.id,
      ...(request.agentVersion ? { agentVersion: request.agentVersion } : {}),
    });
    return { planner, offline: llm.offline === true };
  };
  return create;
}
