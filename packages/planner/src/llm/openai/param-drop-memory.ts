/**
 * Request parameters the client may leave out when an endpoint refuses them (LiteLLM's drop_params idea).
 * `messages`, `model` and `stream` are never dropped: without them there is no request.
 */
export const DROPPABLE_PARAMS = [
  "reasoning_effort",
  "temperature",
  "max_tokens",
  "max_completion_tokens",
  "response_format",
  "stream_options",
] as const;
export type DroppableParam = (typeof DROPPABLE_PARAMS)[number];

/** What an endpoint refused for one model: parameters to leave out, and a downgraded response format. */
export interface ParamAdjustments {
  dropped: ReadonlySet<DroppableParam>;
  /** `max_tokens` refused in favour of `max_completion_tokens` (OpenAI's o-series and gpt-5). */
  useMaxCompletionTokens: boolean;
  /** `json_schema` refused: fall back to `json_object` before dropping `response_format` altogether. */
  jsonSchemaRefused: boolean;
}

interface MutableAdjustments {
  dropped: Set<DroppableParam>;
  useMaxCompletionTokens: boolean;
  jsonSchemaRefused: boolean;
}

/**
 * Remembers refused parameters per (base URL, model), so that after one 400 every later request to that
 * model goes out without them. One process-wide instance is shared by default (`defaultParamDropMemory`).
 */
export class ParamDropMemory {
  private readonly entries = new Map<string, MutableAdjustments>();

  /** The adjustments known for a model; empty when the endpoint never refused anything. */
  get(baseURL: string, model: string): ParamAdjustments {
    const entry = this.entries.get(key(baseURL, model));
    return entry ?? { dropped: new Set(), useMaxCompletionTokens: false, jsonSchemaRefused: false };
  }

  /** Records one refusal; returns false when it teaches nothing new (the same request would fail again). */
  record(options: { baseURL: string; model: string; refusal: ParamRefusal }): boolean {
    const id = key(options.baseURL, options.model);
    const entry = this.entries.get(id) ?? {
      dropped: new Set<DroppableParam>(),
      useMaxCompletionTokens: false,
      jsonSchemaRefused: false,
    };
    const { refusal } = options;
    let learned = false;
    if (refusal.kind === "rename_max_tokens" && !entry.useMaxCompletionTokens) {
      entry.useMaxCompletionTokens = true;
      learned = true;
    } else if (refusal.kind === "json_schema" && !entry.jsonSchemaRefused) {
      entry.jsonSchemaRefused = true;
      learned = true;
    } else if (refusal.kind === "drop" && !entry.dropped.has(refusal.param)) {
      entry.dropped.add(refusal.param);
      learned = true;
    }
    this.entries.set(id, entry);
    return learned;
  }

  /** Forgets everything (tests; or after an endpoint was upgraded). */
  clear(): void {
    this.entries.clear();
  }
}

/** How to change a request after a 400 that names one of its parameters. */
export type ParamRefusal =
  { kind: "drop"; param: DroppableParam } | { kind: "rename_max_tokens" } | { kind: "json_schema" };

/** Shared by every `OpenAiClient` that is not given its own memory. */
export const defaultParamDropMemory = new ParamDropMemory();

function key(baseURL: string, model: string): string {
  return `${baseURL.replace(/\/+$/, "")}\u0000${model}`;
}

/**
 * Reads a 400/422 error body and the request that caused it: which sent parameter did the endpoint refuse?
 * OpenAI names it in `error.param` and in the message ("Unsupported parameter: 'reasoning_effort' …");
 * vLLM, Ollama and LiteLLM proxies name it in the message only.
 */
export function findParamRefusal(options: {
  param?: string | null | undefined;
  message: string;
  body: Readonly<Record<string, unknown>>;
}): ParamRefusal | undefined {
  const { body, message } = options;
  if (isJsonSchemaFormat(body.response_format) && /json_schema/i.test(message))
    return { kind: "json_schema" };
  const param = DROPPABLE_PARAMS.find(
    (name) => body[name] !== undefined && (name === options.param || mentions(message, name)),
  );
  if (param === undefined) return undefined;
  if (param === "max_tokens" && mentions(message, "max_completion_tokens")) {
    return { kind: "rename_max_tokens" };
  }
  return { kind: "drop", param };
}

function mentions(message: string, param: string): boolean {
  return new RegExp(`(^|[^a-z_])${param}([^a-z_]|$)`, "i").test(message);
}

function isJsonSchemaFormat(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "json_schema";
}
