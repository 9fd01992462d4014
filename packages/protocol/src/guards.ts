// Guardrails (issue 35, docs/guides/guardrails.md): the spec's `guards`, the `guard_verdict` event, and
// what a test case may expect of them.
import { z } from "zod";
import { JsonSchema, LlmConfig } from "./agent-spec-base.js";
import { ToolName } from "./names.js";
import { createRunEventEnvelope } from "./run-event-envelope.js";

/** `input`: the user's query, before the first LLM call; `tool_result`: a tool's result, before the model sees it; `output`: the final answer, before the caller sees it. */
export const GuardStage = z.enum(["input", "tool_result", "output"]);
export type GuardStage = z.infer<typeof GuardStage>;

/**
 * What a failed check does. `block`: input/output stop the run (`guard_blocked`), a tool result becomes a
 * tool error the model sees; `redact`: what was found is masked (`[email]`, `[card]`) before the model or
 * the caller sees it; `flag`: passes and is recorded; `pause`: a person decides (the inbox).
 */
export const GuardAction = z.enum(["block", "redact", "flag", "pause"]);
export type GuardAction = z.infer<typeof GuardAction>;

export const PII_TYPES = ["email", "phone", "card", "iban"] as const;
export const PiiType = z.enum(PII_TYPES);
export type PiiType = z.infer<typeof PiiType>;

/** Checks that find spans in text, and so can `redact`. */
export const SCANNING_CHECK_KINDS = ["pii", "secrets", "prompt_injection", "deny_words"] as const;

export const PiiCheck = z.strictObject({
  kind: z.literal("pii"),
  /** Unset: all of them. */
  types: z.array(PiiType).min(1).max(PII_TYPES.length).optional(),
});
export const SecretsCheck = z.strictObject({ kind: z.literal("secrets") });
export const PromptInjectionCheck = z.strictObject({ kind: z.literal("prompt_injection") });
export const MaxLengthCheck = z.strictObject({
  kind: z.literal("max_length"),
  chars: z.int().positive().max(100_000_000),
});
export const DenyWordsCheck = z.strictObject({
  kind: z.literal("deny_words"),
  words: z.array(z.string().min(1).max(500)).min(1).max(1_000),
  /** Each word is a JavaScript regular expression (checked when the spec is saved). */
  regex: z.boolean().optional(),
  /** Default false: "Secret" matches "secret". */
  caseSensitive: z.boolean().optional(),
});
export const JsonSchemaCheck = z.strictObject({ kind: z.literal("json_schema"), schema: JsonSchema });
/** A judging prompt; the model answers pass or fail and a reason. On the offline model a deterministic stand-in judges. */
export const LlmCheck = z.strictObject({
  kind: z.literal("llm"),
  prompt: z.string().min(1).max(20_000),
  /** Unset: the agent's own model. */
  llm: LlmConfig.optional(),
});
/** A function registered with the server (`defineGuardCheck`), by name, like module tools. */
export const ModuleCheck = z.strictObject({ kind: z.literal("module"), name: z.string().min(1).max(200) });

export const GuardCheck = z.discriminatedUnion("kind", [
  PiiCheck,
  SecretsCheck,
  PromptInjectionCheck,
  MaxLengthCheck,
  DenyWordsCheck,
  JsonSchemaCheck,
  LlmCheck,
  ModuleCheck,
]);
export type GuardCheck = z.infer<typeof GuardCheck>;
export type GuardCheckKind = GuardCheck["kind"];
export const GUARD_CHECK_KINDS = GuardCheck.options.map((option) => option.shape.kind.value);

export const GuardName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/,
    "letters, digits, space, _ . - (at most 64), starting with a letter or digit",
  );

export const GUARD_TIMEOUT_MS = 10_000;

export const Guard = z.strictObject({
  name: GuardName,
  on: GuardStage,
  check: GuardCheck,
  action: GuardAction,
  /** `tool_result` only: the tools it watches (unset: every tool). */
  tools: z.array(ToolName).min(1).max(500).optional(),
  /** A check that throws or times out blocks (`block`, the default: fail closed) or lets the text pass (`allow`). */
  onError: z.enum(["block", "allow"]).default("block"),
  /** What the model (a blocked tool result) or the caller (a blocked run) is told. */
  message: z.string().min(1).max(2_000).optional(),
  timeoutMs: z.int().positive().max(120_000).default(GUARD_TIMEOUT_MS),
});
export type Guard = z.infer<typeof Guard>;
export type GuardInput = z.input<typeof Guard>;

/** What a check found, by kind (`email`, `card`, `aws_key`, `injection`, `word`, …): counts only, never the text. */
export const GuardFinding = z.strictObject({ kind: z.string().min(1).max(64), count: z.int().positive() });
export type GuardFinding = z.infer<typeof GuardFinding>;

/** `pass`: nothing found; `fail`: the check found something; `error`: the check threw or timed out. */
export const GuardVerdict = z.enum(["pass", "fail", "error"]);
export type GuardVerdict = z.infer<typeof GuardVerdict>;

/** What was done: `none` (passed), the guard's action, or `allow` (an error let through by `onError: "allow"`). */
export const GuardApplied = z.enum(["none", "block", "redact", "flag", "pause", "allow"]);
export type GuardApplied = z.infer<typeof GuardApplied>;

/** One guard's decision. `tool` and `step` for `tool_result`; `message` for a fail or an error (never the matched text). */
export const GuardVerdictEvent = createRunEventEnvelope(
  "guard_verdict",
  z.looseObject({
    guard: z.string(),
    on: GuardStage,
    verdict: GuardVerdict,
    action: GuardApplied,
    findings: z.array(GuardFinding),
    check: z.string(),
    tool: z.string().optional(),
    /** The tool call's `callId` (as in its `tool_start`/`tool_end`), for tool results. */
    callId: z.string().optional(),
    step: z.int().nonnegative().optional(),
    message: z.string().optional(),
    durationMs: z.number().nonnegative().optional(),
  }),
);

/** The answer is held back from every stream while these `output` guards check it. */
export const GuardCheckingEvent = createRunEventEnvelope(
  "guard_checking",
  z.looseObject({ on: GuardStage, guards: z.array(z.string()).min(1) }),
);

/** `expect.guards` of a test case: the guard must have decided so at least once in the run. */
export const GuardExpect = z.strictObject({ guard: GuardName, verdict: GuardVerdict });
export type GuardExpect = z.infer<typeof GuardExpect>;

/** `POST /api/guards/check`: runs one check on a sample text (the designer's live sample box). */
export const GuardSampleRequest = z.strictObject({
  check: GuardCheck,
  text: z.string().max(1_000_000),
  /** The agent whose model and module checks an `llm` or `module` check uses. */
  agentId: z.string().max(64).optional(),
});
export type GuardSampleRequest = z.infer<typeof GuardSampleRequest>;

export const GuardSampleResult = z.strictObject({
  verdict: GuardVerdict,
  findings: z.array(GuardFinding),
  /** The text as `redact` would leave it (scanning checks only). */
  redacted: z.string().optional(),
  message: z.string().optional(),
  durationMs: z.number().nonnegative(),
});
export type GuardSampleResult = z.infer<typeof GuardSampleResult>;
