import { z } from "zod";
import { CredentialName } from "./names.js";

/** The largest credential value the server keeps (16 KB of UTF-8). */
export const MAX_CREDENTIAL_BYTES = 16 * 1024;

export const CredentialKind = z.enum(["llm", "secret"]);
export type CredentialKind = z.infer<typeof CredentialKind>;

/**
 * A credential as the API shows it: never its value, only the last 4 characters. `source: "environment"`
 * entries (`WADDLE_SECRET_*`, `OPENAI_API_KEY`) are read-only and win over a stored one of the same name.
 */
export const CredentialInfo = z.object({
  name: z.string(),
  kind: CredentialKind,
  last4: z.string(),
  updatedAt: z.string().nullable(),
  source: z.enum(["stored", "environment"]),
  baseUrl: z.string().optional(),
  models: z.array(z.string()).optional(),
  /** A stored credential that an environment entry of the same name hides. */
  shadowed: z.boolean().optional(),
});
export type CredentialInfo = z.infer<typeof CredentialInfo>;

export const CredentialsResponse = z.object({ credentials: z.array(CredentialInfo) });
export type CredentialsResponse = z.infer<typeof CredentialsResponse>;

/** `PUT /api/credentials/:name`. */
export const PutCredentialRequest = z.strictObject({
  kind: CredentialKind,
  value: z
    .string()
    .min(1, "must not be empty")
    .refine((value) => new TextEncoder().encode(value).length <= MAX_CREDENTIAL_BYTES, {
      message: `must be at most ${MAX_CREDENTIAL_BYTES / 1024} KB`,
    }),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  models: z.array(z.string().min(1).max(200)).max(100).optional(),
});
export type PutCredentialRequest = z.infer<typeof PutCredentialRequest>;

export const CredentialNameParam = z.strictObject({ name: CredentialName });

/** One entry of an allow-list, with where it comes from (the environment's are read-only). */
export const AllowListEntry = z.object({
  entry: z.string(),
  source: z.enum(["stored", "environment", "credential"]),
});
export type AllowListEntry = z.infer<typeof AllowListEntry>;

/** `GET /api/allowlist`: hosts http tools may reach, and LLM endpoints specs may use. */
export const AllowListResponse = z.object({
  http: z.array(AllowListEntry),
  llm: z.array(AllowListEntry),
});
export type AllowListResponse = z.infer<typeof AllowListResponse>;

/** `PUT /api/allowlist`: the stored entries (the environment's stay as they are). */
export const PutAllowListRequest = z.strictObject({
  http: z.array(z.string().max(300)).max(500),
  llm: z.array(z.string().max(300)).max(500),
});
export type PutAllowListRequest = z.infer<typeof PutAllowListRequest>;

/** Why an agent's model cannot be used here, and what fixes it. */
export const LlmProblem = z.object({
  /** Where in the spec: `llm`, `tools[2].impl.llm`, … */
  path: z.string(),
  code: z.enum(["no_key", "unknown_credential", "host_not_allowed", "key_env_not_allowed"]),
  message: z.string(),
  /** `host_not_allowed`: the origin to allow on the llm list. */
  origin: z.string().optional(),
  /** `no_key` / `unknown_credential`: the credential or variable to add. */
  credential: z.string().optional(),
});
export type LlmProblem = z.infer<typeof LlmProblem>;

/** An http tool whose host is not on the http allow-list. */
export const HostProblem = z.object({
  tool: z.string(),
  host: z.string(),
  message: z.string(),
});
export type HostProblem = z.infer<typeof HostProblem>;

/** `POST /api/credentials/check` `{spec}`: what this server would run the agent on, before Run. */
export const CredentialsCheckResponse = z.object({
  /** The model the agent asks for (`provider · model @ host`). */
  model: z.string(),
  /** True when the agent's own model would run; false when it is the offline model. */
  usable: z.boolean(),
  /** The agent asks for the offline model itself. */
  offlineByChoice: z.boolean(),
  llm: z.array(LlmProblem),
  hosts: z.array(HostProblem),
});
export type CredentialsCheckResponse = z.infer<typeof CredentialsCheckResponse>;

/**
 * `POST /api/credentials/:name/test`: the endpoint to try the LLM credential's key on (else the
 * credential's own base URL), and a model for the one-token call made when the endpoint lists no models.
 */
export const TestCredentialRequest = z.strictObject({
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  model: z.string().min(1).max(200).optional(),
});
export type TestCredentialRequest = z.infer<typeof TestCredentialRequest>;

/**
 * Why a connection test failed: `host_not_allowed` (nothing was sent), `unreachable` (no answer: DNS, refused,
 * timed out), `key_refused` (401 or 403), `no_model_to_try` (no model list and no model to call),
 * `endpoint_error` (any other answer that is not a model list or a completion).
 */
export const CREDENTIAL_TEST_CODES = [
  "host_not_allowed",
  "unreachable",
  "key_refused",
  "no_model_to_try",
  "endpoint_error",
] as const;
export const CredentialTestCode = z.enum(CREDENTIAL_TEST_CODES);
export type CredentialTestCode = z.infer<typeof CredentialTestCode>;

/**
 * The answer of a connection test. It succeeded through the endpoint's model list (`GET /models`) or,
 * where that is not offered, a one-token completion; a failure says what to fix. The key never appears.
 */
export const TestCredentialResponse = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    /** The base URL that answered. */
    endpoint: z.string(),
    via: z.enum(["models", "completion"]),
    /** The endpoint's models, sorted (`via: "completion"`: the one that answered). */
    models: z.array(z.string()),
  }),
  z.object({
    ok: z.literal(false),
    endpoint: z.string(),
    code: CredentialTestCode,
    message: z.string(),
    /** The endpoint's HTTP status, when it answered. */
    status: z.number().int().optional(),
  }),
]);
export type TestCredentialResponse = z.infer<typeof TestCredentialResponse>;
