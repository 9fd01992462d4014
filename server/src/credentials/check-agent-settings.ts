import type {
  AgentSpec,
  CredentialsCheckResponse,
  HostProblem,
  LlmConfig,
  LlmProblem,
} from "@waddle/protocol";
import { DEFAULT_LLM_KEY_ENV } from "../llm/llm-endpoint-policy.js";
import type { HostAllowList } from "../tools/host-allow-list.js";
import type { LiveRunSettings } from "./credential-vault.js";

/** The host an http tool's URL template names; undefined when a placeholder is in the host itself. */
export function getTemplateHost(template: string): URL | undefined {
  const filled = template.replace(/\{\{?[^{}]*\}?\}/g, "x");
  try {
    const url = new URL(filled);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    return template.split("/")[2]?.includes("{") ? undefined : url;
  } catch {
    return undefined;
  }
}

/**
 * Whether an http tool's host is on the http allow-list: the server-side answer behind the designer's
 * "Allow host…" action (`POST /api/allowlist/check`). Undefined when the URL names no host yet.
 */
export function isTemplateHostAllowed(allowList: HostAllowList, template: string): boolean | undefined {
  const url = getTemplateHost(template);
  return url === undefined ? undefined : allowList.isAllowed(url);
}

/** http tools whose host is not on the http allow-list. */
export function getHostProblems(spec: AgentSpec, allowList: HostAllowList): HostProblem[] {
  return spec.tools.flatMap((tool) => {
    if (tool.impl.kind !== "http") return [];
    const url = getTemplateHost(tool.impl.url);
    if (url === undefined || allowList.isAllowed(url)) return [];
    return [
      {
        tool: tool.name,
        host: url.port ? `${url.hostname}:${url.port}` : url.hostname,
        message: `Tool "${tool.name}" calls ${url.host}, which is not on this server's http allow-list.`,
      },
    ];
  });
}

/** The endpoint's host; undefined when it depends on a credential that does not exist. */
function getEndpointHost(
  config: LlmConfig,
  settings: LiveRunSettings,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const key = config.credential ? settings.getLlmKey(config.credential) : undefined;
  if (config.credential && !key && !config.baseUrl) return undefined;
  const base = config.baseUrl ?? key?.baseUrl ?? env.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
  try {
    return new URL(base).host;
  } catch {
    return base;
  }
}

/** Why one LLM config could not be used on this server now; empty when it could. */
function getLlmProblems(
  config: LlmConfig,
  path: string,
  options: { settings: LiveRunSettings; env: NodeJS.ProcessEnv },
): LlmProblem[] {
  if (config.provider === "offline") return [];
  const { settings, env } = options;
  const problems: LlmProblem[] = settings.llmPolicy.check(config, path).map((refusal) =>
    refusal.field === "baseUrl"
      ? {
          path,
          code: "host_not_allowed" as const,
          origin: refusal.value,
          message: `The model's endpoint ${refusal.value} is not an LLM endpoint this server allows.`,
        }
      : {
          path,
          code: "key_env_not_allowed" as const,
          credential: refusal.value,
          message: `The key variable ${refusal.value} is not one this server allows (WADDLE_LLM_KEY_ENVS); use a stored credential instead.`,
        },
  );
  if (config.credential) {
    if (!settings.getLlmKey(config.credential)) {
      problems.push({
        path,
        code: "unknown_credential",
        credential: config.credential,
        message: `There is no LLM credential named ${config.credential} on this server.`,
      });
    }
  } else if (config.apiKeyEnv) {
    if (!env[config.apiKeyEnv]) {
      problems.push({
        path,
        code: "no_key",
        credential: config.apiKeyEnv,
        message: `The key variable ${config.apiKeyEnv} is not set on this server.`,
      });
    }
  } else if (!settings.getLlmKey(DEFAULT_LLM_KEY_ENV)) {
    problems.push({
      path,
      code: "no_key",
      credential: DEFAULT_LLM_KEY_ENV,
      message: `This server has no key for ${getEndpointHost(config, settings, env) ?? "the model"}: add an LLM credential named ${DEFAULT_LLM_KEY_ENV}, or pick a credential for the agent.`,
    });
  }
  return problems;
}

/**
 * What Run would meet, before it is pressed: whether the agent's model can be used here (a key, an
 * allowed endpoint) for its main LLM and its llm tools, and which http tools call hosts not allowed.
 */
export function checkAgentSettings(
  spec: AgentSpec,
  options: { settings: LiveRunSettings; env: NodeJS.ProcessEnv },
): CredentialsCheckResponse {
  const configs: [LlmConfig | undefined, string][] = [
    [spec.llm, "llm"],
    [spec.summarizerLlm, "summarizerLlm"],
    [spec.routerLlm, "routerLlm"],
    ...spec.tools.map((tool, index): [LlmConfig | undefined, string] => [
      tool.impl.kind === "llm" ? tool.impl.llm : undefined,
      `tools[${index}].impl.llm`,
    ]),
  ];
  const llm = configs.flatMap(([config, path]) => (config ? getLlmProblems(config, path, options) : []));
  const { provider, model } = spec.llm;
  const host = getEndpointHost(spec.llm, options.settings, options.env);
  return {
    model: provider === "offline" ? "Offline model" : host ? `${model} @ ${host}` : model,
    usable: provider !== "offline" && !llm.some((problem) => problem.path === "llm"),
    offlineByChoice: provider === "offline",
    llm,
    hosts: getHostProblems(spec, options.settings.allowList),
  };
}
