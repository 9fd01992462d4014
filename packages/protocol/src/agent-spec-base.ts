import { z } from "zod";
import { CredentialName, EnvName } from "./names.js";

// The parts of an agent spec that other spec parts (guards) build on.

/** A JSON Schema document (an object); `validateAgentSpec` checks that args/out schemas describe objects. */
export const JsonSchema = z.record(z.string(), z.unknown());
export type JsonSchema = z.infer<typeof JsonSchema>;

export const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} } as const;

export const ReasoningEffort = z.enum(["low", "medium", "high", "auto"]);
export type ReasoningEffort = z.infer<typeof ReasoningEffort>;

export const ResponseFormat = z.enum(["json_object", "json_schema", "none"]);
export type ResponseFormat = z.infer<typeof ResponseFormat>;

/** USD per million tokens; extends the built-in price table for this model. */
export const LlmPrice = z.strictObject({
  inputPerMTok: z.number().nonnegative(),
  outputPerMTok: z.number().nonnegative(),
  reasoningPerMTok: z.number().nonnegative().optional(),
});
export type LlmPrice = z.infer<typeof LlmPrice>;

/**
 * How to reach a model. A key is never stored: `apiKeyEnv` names the variable that holds it, or
 * `credential` names an LLM credential kept by the server (its Credentials page).
 */
export const LlmConfig = z.strictObject({
  provider: z.enum(["openai", "offline"]),
  model: z.string().min(1).max(200),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  apiKeyEnv: EnvName.optional(),
  /** An LLM credential of the server, by name: its key, and its base URL when `baseUrl` is unset. */
  credential: CredentialName.optional(),
  temperature: z.number().min(0).max(2).default(0),
  reasoningEffort: ReasoningEffort.optional(),
  responseFormat: ResponseFormat.optional(),
  maxTokens: z.int().positive().optional(),
  timeoutMs: z.int().positive().optional(),
  price: LlmPrice.optional(),
});
export type LlmConfig = z.infer<typeof LlmConfig>;
export type LlmConfigInput = z.input<typeof LlmConfig>;
