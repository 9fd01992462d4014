import path from "node:path";
import type {
  AllowListResponse,
  CredentialInfo,
  PutAllowListRequest,
  PutCredentialRequest,
} from "@waddle/protocol";
import { DEFAULT_LLM_KEY_ENV, LlmEndpointPolicy } from "../llm/llm-endpoint-policy.js";
import { ApiError } from "../shared/api-error.js";
import { ConfigError } from "../shared/config-error.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import type { CredentialStore, StoredCredential } from "../store/credentials/credential-store.js";
import { HostAllowList } from "../tools/host-allow-list.js";
import { parseHttpAllowEntry, parseLlmAllowEntry } from "./parse-allow-entry.js";
import { SecretBox, SecretBoxError } from "./secret-box.js";
import { createSecretsKeyFile, readSecretsKey, type SecretsKeySource } from "./secrets-key.js";

const SECRET_ENV_PREFIX = "WADDLE_SECRET_";

/** An LLM key a spec may use by name (`llm.credential`), with the endpoint stored beside it. */
export interface LlmKey {
  key: string;
  baseUrl?: string;
  source: "stored" | "environment";
}

/** What one run may use, read when it starts: the environment's settings plus what is stored now. */
export interface LiveRunSettings {
  /** Secret values by name, for `{"secret": "NAME"}` (the environment wins on a clash). */
  secrets: Readonly<Record<string, string>>;
  allowList: HostAllowList;
  llmPolicy: LlmEndpointPolicy;
  /** The LLM key of a credential name; undefined when there is none. */
  getLlmKey(name: string): LlmKey | undefined;
}

/** The environment's settings the vault adds stored ones to. */
export interface EnvironmentSettings {
  httpAllow: readonly string[];
  /** `WADDLE_SECRET_<NAME>` values by `NAME`. */
  secrets: Readonly<Record<string, string>>;
  llmAllow: readonly string[];
  llmKeyEnvs: readonly string[];
}

/**
 * Credentials and allow-list entries kept from the browser, beside those of the environment. Values are
 * sealed at rest (`SecretBox`, key from `WADDLE_SECRETS_KEY` or `secrets.key`) and never leave through the
 * API; the redactor learns them at once. Runs read the store when they start (`getRunSettings`), so a
 * change takes effect on the next run, on every instance sharing the database, without a restart.
 */
export class CredentialVault {
  #box: SecretBox | undefined;
  #keySource: SecretsKeySource;

  private constructor(
    private readonly options: {
      store: CredentialStore;
      env: NodeJS.ProcessEnv;
      settings: EnvironmentSettings;
      redactor: SecretRedactor;
    },
    keySource: SecretsKeySource,
  ) {
    this.#keySource = keySource;
    this.#box = keySource.kind === "none" ? undefined : new SecretBox(keySource.key);
  }

  /**
   * Reads the key and opens every stored credential once: a wrong WADDLE_SECRETS_KEY, a corrupted or
   * missing secrets.key stops the start with a `ConfigError` saying which, never losing the credentials.
   */
  static async open(options: {
    store: CredentialStore;
    env: NodeJS.ProcessEnv;
    dataDir: string;
    settings: EnvironmentSettings;
    redactor: SecretRedactor;
  }): Promise<CredentialVault> {
    const keySource = readSecretsKey(options);
    const vault = new CredentialVault(options, keySource);
    const stored = await options.store.list();
    if (stored.length > 0 && keySource.kind === "none") {
      throw new ConfigError(
        `${stored.length} credential(s) are stored, but the secrets key file ${keySource.file} is missing: restore it, or set WADDLE_SECRETS_KEY to the key they were stored with.`,
      );
    }
    try {
      vault.openAll(stored);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      throw new ConfigError(
        keySource.kind === "environment"
          ? `WADDLE_SECRETS_KEY is not the key the stored credentials were sealed with (${error.message}): set the key they were stored with.`
          : `The secrets key file ${keySource.kind === "file" ? keySource.file : ""} does not open the stored credentials (${error.message}): it was replaced or corrupted. Restore it, or set WADDLE_SECRETS_KEY to the key they were stored with.`,
      );
    }
    return vault;
  }

  /** Where the secrets key comes from: the environment, the data folder's file, or none yet. */
  get keySource(): SecretsKeySource["kind"] {
    return this.#keySource.kind;
  }

  /** Every credential: the environment's (read-only) first, then the stored ones; never a value. */
  async list(): Promise<CredentialInfo[]> {
    const envEntries = this.getEnvironmentEntries();
    const envNames = new Set(envEntries.map((entry) => entry.name));
    const stored = (await this.options.store.list()).map((credential): CredentialInfo => ({
      name: credential.name,
      kind: credential.kind,
      last4: credential.last4,
      updatedAt: credential.updatedAt,
      source: "stored",
      ...(credential.baseUrl ? { baseUrl: credential.baseUrl } : {}),
      ...(credential.models ? { models: credential.models } : {}),
      ...(envNames.has(credential.name) ? { shadowed: true } : {}),
    }));
    return [...envEntries, ...stored];
  }

  /** Stores (or replaces) a credential, sealed; refuses a name the environment holds. */
  async put(name: string, request: PutCredentialRequest): Promise<CredentialInfo> {
    const fromEnv = this.getEnvironmentEntries().find((entry) => entry.name === name);
    if (fromEnv) {
      throw new ApiError(
        "conflict",
        `${name} comes from the server's environment (${getEnvVariable(name)}), which wins over a stored value: change it there, or store this one under another name.`,
        { reason: "from_environment", name },
      );
    }
    if (request.kind === "secret" && (request.baseUrl !== undefined || request.models !== undefined)) {
      throw new ApiError(
        "validation_failed",
        "A secret has a name and a value only: baseUrl and models belong to an LLM credential (kind llm).",
        { reason: "secret_with_llm_fields" },
      );
    }
    const credential: StoredCredential = {
      name,
      kind: request.kind,
      sealed: this.getBox().seal(name, request.value),
      last4: getLast4(request.value),
      ...(request.baseUrl ? { baseUrl: request.baseUrl } : {}),
      ...(request.models && request.models.length > 0 ? { models: request.models } : {}),
      updatedAt: new Date().toISOString(),
    };
    await this.options.store.put(credential);
    await this.getRunSettings();
    const { sealed: _sealed, ...shown } = credential;
    return { ...shown, source: "stored" };
  }

  /** Deletes a stored credential; 404 when none, 409 for one of the environment's. */
  async delete(name: string): Promise<void> {
    const deleted = await this.options.store.delete(name);
    if (!deleted) {
      if (this.getEnvironmentEntries().some((entry) => entry.name === name)) {
        throw new ApiError(
          "conflict",
          `${name} comes from the server's environment (${getEnvVariable(name)}): remove it there.`,
          { reason: "from_environment", name },
        );
      }
      throw new ApiError("not_found", `No stored credential ${name}.`, { name });
    }
    await this.getRunSettings();
  }

  /** Both allow-lists: the environment's entries, the stored ones and the endpoints of LLM credentials. */
  async getAllowList(): Promise<AllowListResponse> {
    const stored = await this.options.store.getAllowList();
    const credentials = await this.options.store.list();
    const { settings } = this.options;
    const envOrigins = new Set(this.getEnvLlmOrigins());
    return {
      http: [
        ...settings.httpAllow.map((entry) => ({ entry, source: "environment" as const })),
        ...stored.http.map((entry) => ({ entry, source: "stored" as const })),
      ],
      llm: [
        ...this.getEnvLlmOrigins().map((entry) => ({ entry, source: "environment" as const })),
        ...stored.llm.map((entry) => ({ entry, source: "stored" as const })),
        ...credentials.flatMap((credential) =>
          credential.kind === "llm" &&
          credential.baseUrl &&
          !envOrigins.has(new URL(credential.baseUrl).origin)
            ? [{ entry: new URL(credential.baseUrl).origin, source: "credential" as const }]
            : [],
        ),
      ],
    };
  }

  /** Replaces the stored entries; an entry that is not a host, host:port or address is a 400 saying why. */
  async putAllowList(request: PutAllowListRequest): Promise<AllowListResponse> {
    const parse = (list: "http" | "llm", entries: readonly string[]) =>
      entries.map((entry, index) => {
        const parsed = list === "http" ? parseHttpAllowEntry(entry) : parseLlmAllowEntry(entry);
        if (!parsed.ok) {
          throw new ApiError(
            "validation_failed",
            `Allow-list entry ${JSON.stringify(entry)} (${list}[${index}]) cannot be added: ${parsed.reason}.`,
            { reason: "invalid_allow_entry", list, index, entry, why: parsed.reason },
          );
        }
        return parsed.entry;
      });
    await this.options.store.putAllowList({
      http: parse("http", request.http),
      llm: parse("llm", request.llm),
    });
    return this.getAllowList();
  }

  /**
   * What a run may use now: the environment's settings plus the stored credentials and entries (the
   * environment winning on a clash); teaches the redactor the stored values.
   */
  async getRunSettings(): Promise<LiveRunSettings> {
    const [credentials, stored] = await Promise.all([
      this.options.store.list(),
      this.options.store.getAllowList(),
    ]);
    const values = this.openAll(credentials);
    const { env, settings } = this.options;
    const secrets: Record<string, string> = {};
    const llmKeys = new Map<string, LlmKey>();
    for (const credential of credentials) {
      const value = values.get(credential.name)!;
      if (credential.kind === "secret") secrets[credential.name] = value;
      else
        llmKeys.set(credential.name, {
          key: value,
          source: "stored",
          ...(credential.baseUrl ? { baseUrl: credential.baseUrl } : {}),
        });
    }
    Object.assign(secrets, settings.secrets);
    for (const name of Object.keys(settings.secrets)) llmKeys.delete(name);
    const envKey = env[DEFAULT_LLM_KEY_ENV];
    if (envKey) llmKeys.set(DEFAULT_LLM_KEY_ENV, { key: envKey, source: "environment" });
    return {
      secrets,
      allowList: new HostAllowList([...settings.httpAllow, ...stored.http]),
      llmPolicy: new LlmEndpointPolicy({
        env,
        allow: [
          ...settings.llmAllow,
          ...stored.llm,
          ...[...llmKeys.values()].flatMap((key) => (key.baseUrl ? [key.baseUrl] : [])),
        ],
        keyEnvs: settings.llmKeyEnvs,
      }),
      getLlmKey: (name) => llmKeys.get(name),
    };
  }

  /**
   * Seals a secret kept outside the credentials (a webhook's signing secret) under `name`, with the same
   * key; the first ever sealed makes the key file, as a first credential does.
   */
  sealValue(name: string, value: string): string {
    return this.getBox().seal(name, value);
  }

  /** Opens what `sealValue(name, …)` sealed; throws `SecretBoxError` when it does not open with this key. */
  openValue(name: string, sealed: string): string {
    const source = this.#keySource;
    if (!this.#box && source.kind === "none") {
      // Another instance sharing the data folder may have made the key file since this one started.
      const now = readSecretsKey({ env: this.options.env, dataDir: path.dirname(source.file) });
      if (now.kind !== "none") {
        this.#keySource = now;
        this.#box = new SecretBox(now.key);
      }
    }
    if (!this.#box) throw new SecretBoxError(`${name} was sealed, but this server has no secrets key now.`);
    return this.#box.open(name, sealed);
  }

  /** Opens every credential (teaching the redactor their values); throws `SecretBoxError` on a wrong key. */
  private openAll(credentials: readonly StoredCredential[]): Map<string, string> {
    const values = new Map<string, string>();
    if (credentials.length === 0) {
      this.options.redactor.setStoredSecrets([]);
      return values;
    }
    const box = this.getBox();
    for (const credential of credentials)
      values.set(credential.name, box.open(credential.name, credential.sealed));
    this.options.redactor.setStoredSecrets(values.values());
    return values;
  }

  /** The box; the first credential ever stored makes the key file (mode 0600) when there is no key. */
  private getBox(): SecretBox {
    if (this.#box) return this.#box;
    const source = this.#keySource;
    if (source.kind !== "none") throw new Error("unreachable: a key source without a box");
    const key = createSecretsKeyFile(source.file);
    this.#keySource = { kind: "file", key, file: source.file };
    this.#box = new SecretBox(key);
    return this.#box;
  }

  /** `WADDLE_SECRET_*` and `OPENAI_API_KEY` as read-only entries. */
  private getEnvironmentEntries(): CredentialInfo[] {
    const { env, settings } = this.options;
    const entries: CredentialInfo[] = [];
    const key = env[DEFAULT_LLM_KEY_ENV];
    if (key) {
      const baseUrl = env.OPENAI_BASE_URL?.trim();
      entries.push({
        name: DEFAULT_LLM_KEY_ENV,
        kind: "llm",
        last4: getLast4(key),
        updatedAt: null,
        source: "environment",
        ...(baseUrl ? { baseUrl } : {}),
      });
    }
    for (const [name, value] of Object.entries(settings.secrets).sort(([a], [b]) => a.localeCompare(b))) {
      if (name === DEFAULT_LLM_KEY_ENV && key) continue;
      entries.push({ name, kind: "secret", last4: getLast4(value), updatedAt: null, source: "environment" });
    }
    return entries;
  }

  private getEnvLlmOrigins(): string[] {
    return new LlmEndpointPolicy({
      env: this.options.env,
      allow: this.options.settings.llmAllow,
    }).describe().origins;
  }
}

/** The last 4 characters the API may show; none of a value under 12 characters, where 4 would say too much. */
function getLast4(value: string): string {
  return value.length < 12 ? "" : value.slice(-4);
}

function getEnvVariable(name: string): string {
  return name === DEFAULT_LLM_KEY_ENV ? name : `${SECRET_ENV_PREFIX}${name}`;
}
