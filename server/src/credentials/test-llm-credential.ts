import { LlmConfig, parseJson, type CredentialTestCode, type TestCredentialResponse } from "@waddle/protocol";
import { z } from "zod";
import type { LlmEndpointPolicy } from "../llm/llm-endpoint-policy.js";

/** How long one request of a test may take before the endpoint counts as unreachable. */
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_MESSAGE_CHARS = 300;
/** Statuses of an endpoint that does not offer `GET /models`: a one-token call tries the key instead. */
const NO_LISTING = new Set([404, 405, 501]);

const ModelList = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });
const Completion = z.looseObject({ model: z.string().optional(), choices: z.array(z.unknown()) });

type Failure = Extract<TestCredentialResponse, { ok: false }>;
type Answer = { status: number; body: unknown; text: string } | { failure: Failure };

/**
 * Tries an LLM key on its OpenAI-compatible endpoint: lists the models (`GET /models`) or, where that is
 * not offered, makes a one-token completion with `model` (else the first of `knownModels`). Nothing is
 * sent to an endpoint the LLM allow-list refuses. The answer never holds the key, even when the endpoint
 * echoes it.
 */
export async function testLlmCredential(input: {
  key: string;
  baseUrl: string;
  model?: string | undefined;
  /** The models stored with the credential, tried when the endpoint lists none. */
  knownModels?: readonly string[] | undefined;
  policy: LlmEndpointPolicy;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Promise<TestCredentialResponse> {
  const endpoint = input.baseUrl.replace(/\/+$/, "");
  const refusal = input.policy.check(
    LlmConfig.parse({ provider: "openai", model: "test", baseUrl: endpoint }),
    "baseUrl",
  )[0];
  if (refusal !== undefined) {
    return fail(endpoint, "host_not_allowed", {
      message:
        `${refusal.value} is not an LLM endpoint this server allows, so nothing was sent: add it to the ` +
        "LLM allow-list on the Credentials page (or WADDLE_LLM_ALLOW), or store the credential with this base URL.",
    });
  }
  const send = (path: string, init: RequestInit = {}) =>
    request({ ...input, url: `${endpoint}${path}`, init, endpoint });
  const listed = await send("/models");
  if ("failure" in listed) return listed.failure;
  if (listed.status < 300) {
    const parsed = ModelList.safeParse(listed.body);
    if (parsed.success) {
      const models = [...new Set(parsed.data.data.map((model) => model.id))].sort();
      return { ok: true, endpoint, via: "models", models };
    }
    return fail(endpoint, "endpoint_error", {
      status: listed.status,
      message: `GET ${endpoint}/models answered, but not with a model list ({"data": [{"id": …}]}): check that the base URL is the OpenAI-compatible API's (it usually ends in /v1).`,
    });
  }
  if (!NO_LISTING.has(listed.status)) return failForStatus(endpoint, listed, input.key);
  const model = input.model ?? input.knownModels?.[0];
  if (model === undefined) {
    return fail(endpoint, "no_model_to_try", {
      status: listed.status,
      message: `The endpoint does not list its models (GET /models answered ${listed.status}), and there is no model to try the key with: add the credential's models (or pick a model for the agent), then test again.`,
    });
  }
  const completion = await complete({ send, model });
  if ("failure" in completion) return completion.failure;
  if (completion.status >= 300) return failForStatus(endpoint, completion, input.key);
  const parsed = Completion.safeParse(completion.body);
  if (!parsed.success) {
    return fail(endpoint, "endpoint_error", {
      status: completion.status,
      message: `POST ${endpoint}/chat/completions answered, but not with a chat completion: check that the base URL is the OpenAI-compatible API's.`,
    });
  }
  return { ok: true, endpoint, via: "completion", models: [model] };
}

/** A one-token completion; once more without `max_tokens` when the endpoint refuses that parameter. */
async function complete(input: {
  send: (path: string, init: RequestInit) => Promise<Answer>;
  model: string;
}): Promise<Answer> {
  const call = (limit: boolean) =>
    input.send("/chat/completions", {
      method: "POST",
      body: JSON.stringify({
        model: input.model,
        messages: [{ role: "user", content: "ping" }],
        ...(limit ? { max_tokens: 1 } : {}),
      }),
    });
  const first = await call(true);
  if ("failure" in first || first.status !== 400 || !first.text.includes("max_tokens")) return first;
  return call(false);
}

async function request(input: {
  key: string;
  url: string;
  endpoint: string;
  init: RequestInit;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Promise<Answer> {
  const run = input.fetch ?? fetch;
  try {
    const response = await run(input.url, {
      ...input.init,
      headers: { authorization: `Bearer ${input.key}`, "content-type": "application/json" },
      signal: AbortSignal.timeout(input.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    const text = await response.text();
    const json = parseJson(text);
    return { status: response.status, body: json.ok ? json.value : undefined, text };
  } catch (error) {
    return {
      failure: fail(input.endpoint, "unreachable", { message: describeUnreachable(input.endpoint, error) }),
    };
  }
}

function describeUnreachable(endpoint: string, error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  const name = (error as { name?: unknown } | undefined)?.name;
  const why =
    name === "TimeoutError"
      ? "it did not answer in time"
      : code === "ENOTFOUND" || code === "EAI_AGAIN"
        ? "its host name does not resolve"
        : code === "ECONNREFUSED"
          ? "nothing listens there (connection refused)"
          : code !== undefined
            ? `the connection failed (${code})`
            : "the connection failed";
  return `${endpoint} could not be reached: ${why}. Check the base URL, and that the server can reach that host.`;
}

/** A status that is neither a model list nor "not offered": the key refused, or the endpoint's error. */
function failForStatus(endpoint: string, answer: { status: number; text: string }, key: string): Failure {
  if (answer.status === 401 || answer.status === 403) {
    return fail(endpoint, "key_refused", {
      status: answer.status,
      message: `The endpoint refused the key (HTTP ${answer.status}): replace the credential's value with a key this endpoint accepts${answer.status === 403 ? ", or one allowed to use this model" : ""}.`,
    });
  }
  const said = getErrorText(answer.text, key);
  return fail(endpoint, "endpoint_error", {
    status: answer.status,
    message: `The endpoint answered HTTP ${answer.status}${said ? `: ${said}` : "."}`,
  });
}

/** The endpoint's own error message (OpenAI's `{error: {message}}`), without the key, cut short. */
function getErrorText(text: string, key: string): string {
  const json = parseJson(text);
  const body = json.ok
    ? (json.value as { error?: { message?: unknown } | string; message?: unknown })
    : undefined;
  const error = body?.error;
  const message =
    typeof error === "string"
      ? error
      : typeof error?.message === "string"
        ? error.message
        : typeof body?.message === "string"
          ? body.message
          : text;
  const flat = message.split(key).join("[redacted]").replace(/\s+/g, " ").trim();
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS - 1)}…` : flat;
}

function fail(
  endpoint: string,
  code: CredentialTestCode,
  detail: { message: string; status?: number },
): Failure {
  return { ok: false, endpoint, code, ...detail };
}
