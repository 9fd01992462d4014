import { z } from "zod";
import { EnvName, McpServerName, McpToolName, SIDE_EFFECTS, Slug, ToolName } from "./names.js";
import { ApprovalPolicy } from "./inbox.js";
import { PlanningHints } from "./planning-hints.js";
import { STUCK_DEFAULTS, StuckOptions } from "./stuck.js";
import { EMPTY_OBJECT_SCHEMA, JsonSchema, LlmConfig } from "./agent-spec-base.js";
import { Guard } from "./guards.js";

export {
  EMPTY_OBJECT_SCHEMA,
  JsonSchema,
  LlmConfig,
  type LlmConfigInput,
  LlmPrice,
  ReasoningEffort,
  ResponseFormat,
} from "./agent-spec-base.js";

/** A model the router may choose when `reasoningEffort` is `auto` (seed 000, open question 4). */
export const CandidateLlm = LlmConfig.extend({
  id: Slug,
  description: z.string().max(500).default(""),
});
export type CandidateLlm = z.infer<typeof CandidateLlm>;

export const RetryPolicy = z.strictObject({
  maxAttempts: z.int().min(1).max(10).default(3),
  backoffMs: z.int().min(0).max(60_000).default(200),
  maxBackoffMs: z.int().min(0).max(600_000).default(5_000),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

export const TasksOptions = z.strictObject({
  enabled: z.boolean().default(false),
  /** Unset: the model asks the user to confirm the spawn and whether to keep the turn (seed 000, OQ 2). */
  spawnRequiresConfirmation: z.boolean().optional(),
  maxConcurrent: z.int().min(1).max(64).default(4),
  maxPerRun: z.int().min(1).max(256).default(16),
  timeoutS: z.number().positive().max(86_400).default(300),
  defaultMergeStrategy: z.enum(["HUMAN_GATED", "APPEND", "REPLACE"]).default("APPEND"),
  /** Forked planners inherit auto-seq unless this overrides it (seed 003). */
  autoSeq: z
    .strictObject({ enabled: z.boolean(), execute: z.boolean(), readOnlyOnly: z.boolean() })
    .partial()
    .optional(),
});
export type TasksOptions = z.infer<typeof TasksOptions>;

/** Planner options with the seeds' defaults. */
export const PlannerOptions = z.strictObject({
  maxIters: z.int().min(1).max(1000).default(8),
  repairAttempts: z.int().min(0).max(10).default(2),
  argFill: z.boolean().default(true),
  maxConsecutiveArgFailures: z.int().min(1).max(20).default(3),
  tokenBudget: z.int().positive().optional(),
  deadlineS: z.number().positive().optional(),
  hopBudget: z.int().positive().optional(),
  systemPromptExtra: z.string().max(20_000).default(""),
  actionFormat: z.enum(["auto", "unified", "legacy"]).default("auto"),
  /** Absolute cap on concurrent branches, whatever the LLM or hints ask for. */
  maxParallelCap: z.int().min(1).max(256).default(16),
  /** Side effects that always pause for approval before the tool runs (besides `requiresApproval`). */
  approvalSideEffects: z.array(z.enum(SIDE_EFFECTS)).default([]),
  /**
   * `false`: the run never pauses. A call that needs approval, a tool that asks for input and a background
   * task that needs confirmation fail instead, with a failure the model can answer from; held task results
   * are not merged. Default true.
   */
  pauseEnabled: z.boolean().optional(),
  toolRetry: RetryPolicy.default({ maxAttempts: 3, backoffMs: 200, maxBackoffMs: 5_000 }),
  toolTimeoutMs: z.int().min(1).max(3_600_000).default(30_000),
  autoSeq: z
    .strictObject({
      enabled: z.boolean().default(false),
      execute: z.boolean().default(false),
      readOnlyOnly: z.boolean().default(true),
    })
    .default({ enabled: false, execute: false, readOnlyOnly: true }),
  todos: z.strictObject({ enabled: z.boolean().default(false) }).default({ enabled: false }),
  /** The stuck-run breaker (docs/guides/stuck-runs.md). */
  stuck: StuckOptions.default({ ...STUCK_DEFAULTS }),
  tasks: TasksOptions.default({
    enabled: false,
    maxConcurrent: 4,
    maxPerRun: 16,
    timeoutS: 300,
    defaultMergeStrategy: "APPEND",
  }),
});
export type PlannerOptions = z.infer<typeof PlannerOptions>;
export type PlannerOptionsInput = z.input<typeof PlannerOptions>;

const HeaderValue = z.union([z.string().max(4_000), z.strictObject({ secret: EnvName })]);

/** A tool written in TypeScript with `defineTool` and registered with the server. */
export const ModuleImpl = z.strictObject({ kind: z.literal("module"), ref: z.string().min(1).max(200) });

/**
 * Calls a URL. `{name}` in url, query and body templates is filled from args; header values may name a
 * secret held by the server (`{"secret": "NAME"}` → `WADDLE_SECRET_NAME`), never a literal key.
 */
export const HttpImpl = z.strictObject({
  kind: z.literal("http"),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).default("GET"),
  url: z.string().min(1).max(4_000),
  headers: z.record(z.string(), HeaderValue).default({}),
  query: z.record(z.string(), z.string()).default({}),
  /** `args` sends the validated args as JSON; a template object is rendered against the args. */
  body: z.union([z.literal("args"), z.literal("none"), z.record(z.string(), z.unknown())]).default("args"),
  timeoutMs: z.int().positive().max(600_000).optional(),
  maxResponseBytes: z.int().positive().max(50_000_000).default(1_000_000),
});

/**
 * A templated result for designing before code exists and for demonstrating faults. Strings of the form
 * `{{path}}` are rendered with `renderTemplate` (args, query, last, steps).
 */
export const MockImpl = z.strictObject({
  kind: z.literal("mock"),
  output: z.unknown().default({}),
  latencyMs: z.int().min(0).max(600_000).optional(),
  failRate: z.number().min(0).max(1).optional(),
  /** The first N calls of a run fail (transient faults that a retry recovers from). */
  failFirst: z.int().min(0).max(100).optional(),
  failMessage: z.string().max(500).optional(),
});

/** An LLM call whose JSON result is validated against the tool's out schema. */
export const LlmImpl = z.strictObject({
  kind: z.literal("llm"),
  prompt: z.string().min(1).max(50_000),
  llm: LlmConfig.optional(),
});

/** Another saved agent run as a subagent. */
export const AgentImpl = z.strictObject({
  kind: z.literal("agent"),
  agentId: Slug,
  maxIters: z.int().positive().max(1000).optional(),
});

/**
 * A tool of an MCP server the operator listed in `WADDLE_MCP_SERVERS`, by the server's name: a spec can
 * never name a command or a URL of its own. Empty args/out schemas are filled from the server's listing.
 */
export const McpImpl = z.strictObject({
  kind: z.literal("mcp"),
  server: McpServerName,
  tool: McpToolName,
});

/**
 * A remote A2A agent (Agent2Agent protocol), by the URL of its Agent Card or of the agent (the card is then
 * read at `<url>/.well-known/agent-card.json`). The card's skills describe the tool to the planner; the
 * host must be on the server's http allow-list (`WADDLE_HTTP_ALLOW`), and header values may name a secret
 * (`{"secret": "NAME"}`) as for http tools, e.g. `Authorization`.
 */
export const A2aImpl = z.strictObject({
  kind: z.literal("a2a"),
  url: z.string().min(1).max(4_000),
  headers: z.record(z.string(), HeaderValue).default({}),
  timeoutMs: z.int().positive().max(3_600_000).optional(),
});

/**
 * The out schema of an A2A tool: the remote agent's answer as text, its task's id and final state, and any
 * data parts it answered with.
 */
export const A2A_RESULT_SCHEMA = {
  type: "object",
  properties: {
    text: { type: "string", description: "The remote agent's answer" },
    taskId: { type: "string" },
    state: { type: "string" },
    data: { type: "array", items: { type: "object" } },
  },
} as const;

/**
 * The out schema of an MCP tool whose server declares none: its result is the text of its content
 * (`{"text": "…"}`); a tool with an output schema answers with its structured content instead.
 */
export const MCP_TEXT_RESULT_SCHEMA = {
  type: "object",
  properties: { text: { type: "string", description: "The text the MCP tool answered with" } },
} as const;

export const ToolImpl = z.discriminatedUnion("kind", [
  ModuleImpl,
  HttpImpl,
  MockImpl,
  LlmImpl,
  AgentImpl,
  McpImpl,
  A2aImpl,
]);
export type ToolImpl = z.infer<typeof ToolImpl>;
export type ToolImplKind = ToolImpl["kind"];

export const ToolSpec = z.strictObject({
  name: ToolName,
  desc: z.string().max(4_000).default(""),
  sideEffects: z.enum(SIDE_EFFECTS).default("pure"),
  tags: z.array(z.string().max(64)).max(64).default([]),
  authScopes: z.array(z.string().max(128)).max(64).default([]),
  costHint: z.string().max(64).optional(),
  /** Estimated USD per call, counted against `budget_hints.max_cost_usd`. */
  costUsd: z.number().nonnegative().optional(),
  latencyHintMs: z.int().nonnegative().optional(),
  safetyNotes: z.string().max(2_000).optional(),
  argsSchema: JsonSchema.default({ ...EMPTY_OBJECT_SCHEMA }),
  outSchema: JsonSchema.default({ ...EMPTY_OBJECT_SCHEMA }),
  autoSeq: z.boolean().default(false),
  autoSeqExecute: z.boolean().default(false),
  requiresApproval: z.boolean().default(false),
  /** How long a pause at this tool waits for a person, and what the server decides then (wins over the agent's). */
  approval: ApprovalPolicy.optional(),
  retry: RetryPolicy.optional(),
  timeoutMs: z.int().min(1).max(3_600_000).optional(),
  extra: z.record(z.string(), z.unknown()).default({}),
  impl: ToolImpl,
});
export type ToolSpec = z.infer<typeof ToolSpec>;
export type ToolSpecInput = z.input<typeof ToolSpec>;

export const EdgeKind = z.enum(["auto_seq", "order"]);
export type EdgeKind = z.infer<typeof EdgeKind>;

/** `auto_seq`: target may deterministically follow source. `order`: an ordering hint. */
export const Edge = z.strictObject({
  id: Slug,
  kind: EdgeKind,
  source: ToolName,
  target: ToolName,
});
export type Edge = z.infer<typeof Edge>;

export const GroupJoin = z.strictObject({
  tool: ToolName,
  args: z.record(z.string(), z.unknown()).default({}),
  /** join arg name → one of the six injection sources (`$results`, `$expect`, …). */
  inject: z.record(z.string(), z.string()).default({}),
});
export type GroupJoin = z.infer<typeof GroupJoin>;

export const ParallelGroup = z.strictObject({
  id: Slug,
  kind: z.literal("parallel"),
  name: z.string().min(1).max(200),
  members: z.array(ToolName).max(64),
  maxParallel: z.int().min(1).max(256).optional(),
  join: GroupJoin.optional(),
});
export type ParallelGroup = z.infer<typeof ParallelGroup>;

export const Position = z.strictObject({
  x: z.number(),
  y: z.number(),
  width: z.number().positive().optional(),
  height: z.number().positive().optional(),
});
export type Position = z.infer<typeof Position>;

/** Canvas positions, keyed by tool name or `group:<id>`; ignored by the runtime. */
export const Layout = z.strictObject({
  nodes: z.record(z.string(), Position).default({}),
  viewport: z.strictObject({ x: z.number(), y: z.number(), zoom: z.number().positive() }).optional(),
});
export type Layout = z.infer<typeof Layout>;

export const AgentSpec = z.strictObject({
  version: z.literal(1),
  id: Slug,
  name: z.string().min(1).max(200),
  description: z.string().max(4_000).default(""),
  /** Queries the designer offers in the run panel. */
  sampleQueries: z.array(z.string().min(1).max(2_000)).max(20).default([]),
  llm: LlmConfig.default({ provider: "offline", model: "offline", temperature: 0 }),
  summarizerLlm: LlmConfig.optional(),
  routerLlm: LlmConfig.optional(),
  candidateLlms: z.array(CandidateLlm).max(16).optional(),
  planner: PlannerOptions.default(PlannerOptions.parse({})),
  /**
   * The answer's shape: a JSON Schema of an object. Set, the run's answer is an object valid against it
   * (re-asked within `planner.repairAttempts`, else the run fails with `answer_schema_failed`).
   */
  answerSchema: JsonSchema.optional(),
  /** How long any pause of a run waits for a person, unless the paused tool sets its own `approval`. */
  approval: ApprovalPolicy.optional(),
  /** Checks on the query, tool results and the answer (docs/guides/guardrails.md), run in this order per stage. */
  guards: z.array(Guard).max(100).default([]),
  tools: z.array(ToolSpec).max(500).default([]),
  edges: z.array(Edge).max(5_000).default([]),
  groups: z.array(ParallelGroup).max(500).default([]),
  hints: PlanningHints.default(PlanningHints.parse({})),
  layout: Layout.default({ nodes: {} }),
});
export type AgentSpec = z.infer<typeof AgentSpec>;
export type AgentSpecInput = z.input<typeof AgentSpec>;
