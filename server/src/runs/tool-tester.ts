import {
  AgentSpec,
  renderTemplate,
  validateAgentSpec,
  type ToolSpec,
  type ToolTestRequest,
  type ToolTestResponse,
} from "@waddle/protocol";
import { testToolCall } from "@waddle/planner";
import { createImplResolver } from "./create-impl-resolver.js";
import {
  createDefaultPlannerFactory,
  createLlmFor,
  createSubagentRunner,
  MAX_AGENT_DEPTH,
  type DefaultPlannerFactoryOptions,
} from "./default-planner-factory.js";
import { ApiError, notFound } from "../shared/api-error.js";

const CONFIRMED_SIDE_EFFECTS: ReadonlySet<string> = new Set(["write", "external", "stateful"]);

/** Calls one tool of an agent once, as a run would, for the designer's **Run tool**. */
export type ToolTester = (request: ToolTestRequest, signal: AbortSignal) => Promise<ToolTestResponse>;

/** True when a test call of this tool needs `confirm: true` first. */
export function needsConfirmation(tool: Pick<ToolSpec, "sideEffects" | "requiresApproval">): boolean {
  return tool.requiresApproval || CONFIRMED_SIDE_EFFECTS.has(tool.sideEffects);
}

async function getSpec(options: DefaultPlannerFactoryOptions, request: ToolTestRequest): Promise<AgentSpec> {
  if ("spec" in request) {
    const parsed = AgentSpec.safeParse(request.spec);
    if (parsed.success) return parsed.data;
    const first = validateAgentSpec(request.spec).issues.find((issue) => issue.severity === "error");
    throw new ApiError(
      "invalid_spec",
      `The spec cannot be read${first ? `: ${first.path}: ${first.message}` : ""}. Fix it before testing a tool.`,
      { issues: validateAgentSpec(request.spec).issues },
    );
  }
  const record =
    request.agentVersion === undefined
      ? await options.store.getAgent(request.agentId)
      : await options.store.getAgentVersion(request.agentId, request.agentVersion);
  if (record) return record.spec;
  throw request.agentVersion === undefined
    ? notFound("Agent", request.agentId)
    : new ApiError("not_found", `Agent "${request.agentId}" has no version ${request.agentVersion}.`);
}

/**
 * The tool tester over the server's run setup: the same allow-lists, secrets, LLM endpoint policy, MCP
 * servers, module tools and subagents a run uses (the live ones of `getRunSettings`, read per call), and the spec's retry and timeout settings. Refuses a
 * tool with side effects without `confirm` (409 `confirmation_required`) and args that do not fit the
 * tool's schema (400 `validation_failed` with the issues); a tool's own failure is an answer, `ok: false`.
 */
export function createToolTester(options: DefaultPlannerFactoryOptions): ToolTester {
  const create = createDefaultPlannerFactory(options);
  return async (request, signal) => {
    let spec = await getSpec(options, request);
    const found = spec.tools.find((candidate) => candidate.name === request.tool);
    if (!found) {
      throw new ApiError(
        "not_found",
        `Agent "${spec.id}" has no tool "${request.tool}": its tools are ${spec.tools.map((tool) => tool.name).join(", ") || "none"}.`,
      );
    }
    if (needsConfirmation(found) && request.confirm !== true) {
      throw new ApiError(
        "confirmation_required",
        `${found.name} ${found.requiresApproval ? "requires approval" : `has ${found.sideEffects} side effects`}: send "confirm": true to run it for real.`,
        { sideEffects: found.sideEffects, requiresApproval: found.requiresApproval },
      );
    }
    if (found.impl.kind === "mcp") {
      if (!options.mcp) {
        throw new ApiError(
          "mcp_server_not_configured",
          "No MCP servers are configured here (WADDLE_MCP_SERVERS).",
        );
      }
      const alone = { ...spec, tools: [found], edges: [], groups: [] };
      options.mcp.assertSpec(alone);
      spec = { ...spec, tools: (await options.mcp.fillSchemas(alone)).tools };
    }
    const tool = spec.tools.find((candidate) => candidate.name === request.tool)!;
    // Read per call, as a run reads them when it starts: a host or secret added a moment ago counts.
    const live = options.getRunSettings ? await options.getRunSettings() : undefined;
    const llmFor = createLlmFor(options, live);
    const resolveImpl = createImplResolver({
      allowList: live?.allowList ?? options.allowList,
      secrets: live?.secrets ?? options.secrets,
      redactor: options.redactor,
      createLlm: llmFor,
      agentLlm: spec.llm,
      runSubagent: createSubagentRunner({
        request: { spec, runId: "tool-test" },
        create,
        store: options.store,
        maxDepth: options.maxAgentDepth ?? MAX_AGENT_DEPTH,
      }),
      ...(options.lookup ? { lookup: options.lookup } : {}),
      ...(options.mcp ? { mcp: options.mcp } : {}),
    });
    const outcome = await testToolCall({
      tool,
      args: request.args,
      options: spec.planner,
      moduleTools: new Map(Object.entries(options.registry.getDefinitions())),
      resolveImpl,
      signal,
    });
    if (!outcome.ok && outcome.error.code === "invalid_args") {
      throw new ApiError("validation_failed", outcome.error.message, { issues: outcome.error.issues ?? [] });
    }
    const prompt =
      tool.impl.kind === "llm"
        ? options.redactor.redactText(
            String(renderTemplate(tool.impl.prompt, { args: request.args, query: "" })),
          )
        : undefined;
    const base = { latencyMs: outcome.durationMs, attempts: outcome.attempts, ...(prompt ? { prompt } : {}) };
    return outcome.ok
      ? { ok: true, result: options.redactor.redact(outcome.result), ...base }
      : {
          ok: false,
          error: { code: outcome.error.code, message: options.redactor.redactText(outcome.error.message) },
          ...base,
        };
  };
}
