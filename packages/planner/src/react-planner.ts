import { AgentSpec, type AgentSpecInput, type LlmPrice } from "@waddle/protocol";
import { buildCatalog } from "./catalog.js";
import type { LlmClient } from "./llm-client.js";
import { createPlannerConfig, type PlannerConfig, type ReactPlannerInit } from "./planner-config.js";
import { PlannerError } from "./planner-error.js";
import { PlannerRun } from "./planner-run.js";
import type { PriceTable } from "./price-table.js";
import type { PlannerFinish, PlannerPause, ResumeOptions, RunOptions } from "./run-types.js";
import type { StateStore } from "./state-store.js";
import type { ImplResolver, ToolDefinition } from "./tool.js";

/** What `ReactPlanner.fromSpec` needs besides the spec: the model, tool code, and the same injectables. */
export interface FromSpecOptions extends Omit<
  ReactPlannerInit,
  "catalog" | "options" | "hints" | "edges" | "groups" | "llm"
> {
  llm: LlmClient;
  moduleTools?: ReadonlyMap<string, ToolDefinition> | readonly ToolDefinition[];
  resolveImpl?: ImplResolver;
  summarizerLlm?: LlmClient;
  routerLlm?: LlmClient;
  stateStore?: StateStore;
}

/**
 * The ReAct planner (PenguiFlow ReactPlanner contract): a JSON-only loop over a typed tool catalog with
 * repair, retries, constraints, hints enforced in code and parallel fan-out. Holds configuration only:
 * every `run` gets its own state, so one planner may run many queries at once.
 */
export class ReactPlanner {
  private readonly config: PlannerConfig;

  constructor(init: ReactPlannerInit) {
    this.config = createPlannerConfig(init);
  }

  /** A planner for an AgentSpec: its tools (mock tools run here), options, hints, edges and groups. */
  static fromSpec(spec: AgentSpec | AgentSpecInput, options: FromSpecOptions): ReactPlanner {
    const parsed = AgentSpec.parse(spec);
    const { moduleTools, resolveImpl, ...rest } = options;
    const catalog = buildCatalog({
      specTools: parsed.tools,
      ...(moduleTools === undefined ? {} : { moduleTools }),
      ...(resolveImpl === undefined ? {} : { resolveImpl }),
      ...(rest.random === undefined ? {} : { random: rest.random }),
      ...(rest.sleep === undefined ? {} : { sleep: rest.sleep }),
    });
    const init: ReactPlannerInit = {
      ...rest,
      catalog,
      options: parsed.planner,
      hints: parsed.hints,
      edges: parsed.edges,
      groups: parsed.groups,
      agentId: rest.agentId ?? parsed.id,
    };
    const priceTable = withSpecPrice(rest.priceTable, parsed.llm.model, parsed.llm.price);
    if (priceTable !== undefined) init.priceTable = priceTable;
    if (rest.reasoningEffort === undefined && parsed.llm.reasoningEffort !== undefined) {
      init.reasoningEffort = parsed.llm.reasoningEffort;
    }
    if (rest.responseFormat === undefined && parsed.llm.responseFormat !== undefined) {
      init.responseFormat = parsed.llm.responseFormat;
    }
    return new ReactPlanner(init);
  }

  /** The catalog's tool names (built-ins included), in prompt order. */
  get toolNames(): readonly string[] {
    return this.config.catalog.names;
  }

  /** The system prompt every run of this planner starts with. */
  get systemPrompt(): string {
    return this.config.systemPrompt;
  }

  /** Runs `query` to a finish or a pause. Events go to `onEvent`; `signal` cancels. */
  run(query: string, options: RunOptions = {}): Promise<PlannerFinish | PlannerPause> {
    return new PlannerRun(this.config, query, options).execute();
  }

  /** Continues a paused run with a person's decision. Wired by the pause/resume work (issue 4). */
  resume(token: string, options: ResumeOptions): Promise<PlannerFinish | PlannerPause> {
    void options;
    return Promise.reject(
      new PlannerError(
        "resume_unavailable",
        `Cannot resume "${token}": this planner does not support resume yet.`,
        {
          details: { token },
        },
      ),
    );
  }
}

function withSpecPrice(
  table: PriceTable | undefined,
  model: string,
  price: LlmPrice | undefined,
): PriceTable | undefined {
  if (price === undefined) return table;
  return { ...table, [model]: price };
}
