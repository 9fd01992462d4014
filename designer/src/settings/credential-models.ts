import type { LlmConfig, TestCredentialResponse } from "@waddle/protocol";
import type { CredentialsApi } from "../api/credentials-api.js";

type TestApi = Pick<CredentialsApi, "testCredential">;

/** Which credential (and endpoint) an agent's model is served by: the one its key comes from. */
export interface ModelSource {
  credential: string;
  /** The spec's own base URL, which wins over the credential's. */
  baseUrl?: string;
}

const DEFAULT_CREDENTIAL = "OPENAI_API_KEY";
const tests = new WeakMap<TestApi, Map<string, Promise<TestCredentialResponse | null>>>();

function keyOf(source: ModelSource): string {
  return `${source.credential} ${source.baseUrl ?? ""}`;
}

function cacheOf(api: TestApi): Map<string, Promise<TestCredentialResponse | null>> {
  let cache = tests.get(api);
  if (cache === undefined) tests.set(api, (cache = new Map()));
  return cache;
}

/**
 * The credential whose models an agent's Model field offers: `llm.credential`, else OPENAI_API_KEY when
 * the spec names no key variable; none for the offline model or a key from another variable.
 */
export function getModelSource(llm: Pick<LlmConfig, "provider" | "credential" | "apiKeyEnv" | "baseUrl">) {
  if (llm.provider !== "openai") return undefined;
  const credential = llm.credential ?? (llm.apiKeyEnv ? undefined : DEFAULT_CREDENTIAL);
  if (credential === undefined) return undefined;
  const source: ModelSource = { credential };
  if (llm.baseUrl) source.baseUrl = llm.baseUrl;
  return source;
}

/**
 * The models a credential's connection test lists, tested once per credential and endpoint for the page's
 * life (a failed or refused test gives none); `rememberCredentialTest` and `forgetCredentialModels` keep it
 * in step with the Credentials page.
 */
export async function getCredentialModels(api: TestApi, source: ModelSource): Promise<string[]> {
  const cache = cacheOf(api);
  const key = keyOf(source);
  let test = cache.get(key);
  if (test === undefined) {
    const body = source.baseUrl ? { baseUrl: source.baseUrl } : {};
    test = api.testCredential(source.credential, body).catch(() => null);
    cache.set(key, test);
  }
  const result = await test;
  return result?.ok === true ? result.models : [];
}

/** A test the Credentials page ran: the Model field uses its answer instead of testing again. */
export function rememberCredentialTest(api: TestApi, source: ModelSource, result: TestCredentialResponse) {
  cacheOf(api).set(keyOf(source), Promise.resolve(result));
}

/** A credential stored, replaced or deleted: its models are tested again when next asked for. */
export function forgetCredentialModels(api: TestApi, credential: string): void {
  const cache = cacheOf(api);
  for (const key of [...cache.keys()]) if (key.startsWith(`${credential} `)) cache.delete(key);
}
