import type { LlmConfig } from "@waddle/protocol";
import type { LlmClient } from "./llm-client.js";
import { OfflineModel, type OfflineModelOptions } from "./offline/offline-model.js";
import { OpenAiClient, type OpenAiClientOptions } from "./openai/openai-client.js";

export interface CreateLlmClientOptions {
  /** Where keys and `OPENAI_BASE_URL` are read; `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Settings of the offline model (chunking of the streamed answer). */
  offline?: OfflineModelOptions;
  /** Passed to `OpenAiClient` (fetch, retries, price table, parameter memory). */
  openai?: Omit<OpenAiClientOptions, "config" | "env">;
}

/**
 * The client for a spec's `llm`: `OpenAiClient` for provider `openai` (throws `LlmError` with code
 * `missing_api_key`, naming the variable to set, when no key is found), `OfflineModel` for `offline`.
 */
export function createLlmClient(config: LlmConfig, options: CreateLlmClientOptions = {}): LlmClient {
  if (config.provider === "offline") return new OfflineModel(options.offline);
  return new OpenAiClient({ ...options.openai, config, ...(options.env ? { env: options.env } : {}) });
}
