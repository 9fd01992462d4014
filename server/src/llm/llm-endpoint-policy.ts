import type { AgentSpec, LlmConfig } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";
import { ConfigError } from "../shared/config-error.js";

/** The endpoint the `openai` package calls when neither the spec nor OPENAI_BASE_URL names one. */
export const DEFAULT_LLM_ORIGIN = "https://api.openai.com";
/** The key variable a spec may always name (and the one used when it names none). */
export const DEFAULT_LLM_KEY_ENV = "OPENAI_API_KEY";
/** The server's own settings and secrets: never an LLM key, whatever a list says. */
const SERVER_ENV_PREFIX = "WADDLE_";
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Why one LLM config of a spec may not be used. */
export interface LlmEndpointRefusal {
  /** Where in the spec, e.g. `llm`, `candidateLlms[1]`, `tools[2].impl.llm`. */
  path: string;
  field: "baseUrl" | "apiKeyEnv";
  /** The origin or variable name refused (never a key's value). */
  value: string;
  /** The server setting that would allow it. */
  setting: "WADDLE_LLM_ALLOW" | "WADDLE_LLM_KEY_ENVS";
  message: string;
}

/** A spec names an LLM endpoint or key variable this server does not allow; nothing was sent. */
export class LlmEndpointError extends ApiError<"llm_endpoint_not_allowed"> {
  /** What crosses the wire: where, what and which setting, never a key. */
  declare readonly details: { refusals: Omit<LlmEndpointRefusal, "message">[] };

  constructor(readonly refusals: readonly LlmEndpointRefusal[]) {
    const first = refusals[0]?.message ?? "This LLM endpoint is not allowed.";
    super(
      "llm_endpoint_not_allowed",
      refusals.length > 1
        ? `${first.replace(/\.$/, "")} (and ${refusals.length - 1} more in details.refusals).`
        : first,
      { refusals: refusals.map(({ message: _message, ...rest }) => rest) },
    );
    this.name = "LlmEndpointError";
  }
}

/** Parses `WADDLE_LLM_ALLOW`: comma-separated http(s) URLs whose origins a spec's `baseUrl` may use. */
export function parseLlmAllow(value: string | undefined): string[] {
  return splitList(value).map((entry) => {
    const origin = toOrigin(entry);
    if (origin === undefined) {
      throw new ConfigError(
        `WADDLE_LLM_ALLOW entry ${JSON.stringify(entry)} is not an http(s) URL: list origins such as https://api.deepseek.com,http://127.0.0.1:11434.`,
      );
    }
    return origin;
  });
}

/** Parses `WADDLE_LLM_KEY_ENVS`: comma-separated variable names a spec's `apiKeyEnv` may name. */
export function parseLlmKeyEnvs(value: string | undefined): string[] {
  return splitList(value).map((name) => {
    if (!ENV_NAME.test(name)) {
      throw new ConfigError(
        `WADDLE_LLM_KEY_ENVS entry ${JSON.stringify(name)} is not a variable name: list names such as DEEPSEEK_API_KEY,OPENROUTER_API_KEY.`,
      );
    }
    if (name.startsWith(SERVER_ENV_PREFIX)) {
      throw new ConfigError(
        `WADDLE_LLM_KEY_ENVS may not list ${name}: WADDLE_* variables are the server's own settings and secrets, never an LLM key.`,
      );
    }
    return name;
  });
}

/**
 * Which LLM endpoints and key variables a spec may use, so that a saved agent cannot send any environment
 * variable to any host: `apiKeyEnv` may name OPENAI_API_KEY or a variable in `WADDLE_LLM_KEY_ENVS` (never
 * WADDLE_*), and a `baseUrl` must have the origin of OPENAI_BASE_URL, of the default OpenAI endpoint, or
 * one listed in `WADDLE_LLM_ALLOW`. Specs without either use the server's own settings and always pass.
 * Provider `offline` sends nothing and always passes.
 */
export class LlmEndpointPolicy {
  private readonly origins: ReadonlySet<string>;
  private readonly keyEnvs: ReadonlySet<string>;

  constructor(options: {
    /** Where OPENAI_BASE_URL is read. */
    env: Readonly<Record<string, string | undefined>>;
    /** Allowed endpoints (URLs or origins), as `WADDLE_LLM_ALLOW` lists them. */
    allow?: readonly string[];
    /** Allowed key variables besides OPENAI_API_KEY, as `WADDLE_LLM_KEY_ENVS` lists them. */
    keyEnvs?: readonly string[];
  }) {
    const origins = new Set([DEFAULT_LLM_ORIGIN, ...parseLlmAllow((options.allow ?? []).join(","))]);
    const base = options.env.OPENAI_BASE_URL?.trim();
    if (base) {
      const origin = toOrigin(base);
      if (origin === undefined) {
        throw new ConfigError(
          `OPENAI_BASE_URL=${JSON.stringify(base)} is not an http(s) URL such as https://api.openai.com/v1.`,
        );
      }
      origins.add(origin);
    }
    this.origins = origins;
    this.keyEnvs = new Set([DEFAULT_LLM_KEY_ENV, ...parseLlmKeyEnvs((options.keyEnvs ?? []).join(","))]);
  }

  /** The allowed origins and key variables, for the start-up banner. */
  describe(): { origins: string[]; keyEnvs: string[] } {
    return { origins: [...this.origins], keyEnvs: [...this.keyEnvs] };
  }

  /** Why `config` may not be used (at `path` in its spec); empty when it may. */
  check(config: LlmConfig, path: string): LlmEndpointRefusal[] {
    if (config.provider === "offline") return [];
    const refusals: LlmEndpointRefusal[] = [];
    if (config.baseUrl !== undefined) {
      const origin = toOrigin(config.baseUrl) ?? config.baseUrl;
      if (!this.origins.has(origin)) {
        refusals.push({
          path,
          field: "baseUrl",
          value: origin,
          setting: "WADDLE_LLM_ALLOW",
          message:
            `${path}.baseUrl points at ${origin}, which is not an LLM endpoint this server allows: add ` +
            `${origin} to WADDLE_LLM_ALLOW (comma-separated origins) and restart, or leave baseUrl unset ` +
            "to use the server's OPENAI_BASE_URL.",
        });
      }
    }
    const keyEnv = config.apiKeyEnv;
    if (keyEnv !== undefined && !this.keyEnvs.has(keyEnv)) {
      refusals.push({
        path,
        field: "apiKeyEnv",
        value: keyEnv,
        setting: "WADDLE_LLM_KEY_ENVS",
        message: keyEnv.startsWith(SERVER_ENV_PREFIX)
          ? `${path}.apiKeyEnv names ${keyEnv}, one of the server's own settings, which is never an LLM key: name the variable that holds the model's key.`
          : `${path}.apiKeyEnv names ${keyEnv}, which this server does not allow as an LLM key: add ` +
            `${keyEnv} to WADDLE_LLM_KEY_ENVS (comma-separated names) and restart, or leave apiKeyEnv ` +
            `unset to use ${DEFAULT_LLM_KEY_ENV}.`,
      });
    }
    return refusals;
  }

  /** Throws `LlmEndpointError` when `config` may not be used; nothing has been sent by then. */
  assertAllowed(config: LlmConfig, path: string): void {
    const refusals = this.check(config, path);
    if (refusals.length > 0) throw new LlmEndpointError(refusals);
  }

  /** Every LLM config of a spec: main, summarizer, router, candidates, llm tools' and llm guards' own. */
  checkSpec(spec: AgentSpec): LlmEndpointRefusal[] {
    const configs: [LlmConfig | undefined, string][] = [
      [spec.llm, "llm"],
      [spec.summarizerLlm, "summarizerLlm"],
      [spec.routerLlm, "routerLlm"],
      ...(spec.candidateLlms ?? []).map((config, i): [LlmConfig, string] => [config, `candidateLlms[${i}]`]),
      ...spec.tools.map((tool, i): [LlmConfig | undefined, string] => [
        tool.impl.kind === "llm" ? tool.impl.llm : undefined,
        `tools[${i}].impl.llm`,
      ]),
      ...spec.guards.map((guard, i): [LlmConfig | undefined, string] => [
        guard.check.kind === "llm" ? guard.check.llm : undefined,
        `guards[${i}].check.llm`,
      ]),
    ];
    return configs.flatMap(([config, path]) => (config ? this.check(config, path) : []));
  }

  /** Throws `LlmEndpointError` listing every config of the spec that may not be used. */
  assertSpec(spec: AgentSpec): void {
    const refusals = this.checkSpec(spec);
    if (refusals.length > 0) throw new LlmEndpointError(refusals);
  }
}

function splitList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** `scheme://host[:port]` of an http(s) URL (default ports dropped, lower case); undefined otherwise. */
function toOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
