import type { AgentSpec, LlmConfig } from "./agent-spec.js";
import type { SpecCheckPath as Path, SpecCheckReport as Report } from "./spec-check.js";

/** The server's own settings and secrets: a spec may never name them as an LLM key. */
const SERVER_ENV_PREFIX = "WADDLE_";

/** Checks every LLM config of the spec (main, summarizer, router, candidates, llm tools). */
export function checkLlmConfigs(spec: AgentSpec, report: Report, toolIndex: (i: number) => number): void {
  const configs: Array<[LlmConfig | undefined, Path]> = [
    [spec.llm, ["llm"]],
    [spec.summarizerLlm, ["summarizerLlm"]],
    [spec.routerLlm, ["routerLlm"]],
    ...(spec.candidateLlms ?? []).map((config, i): [LlmConfig, Path] => [config, ["candidateLlms", i]]),
    ...spec.tools.map((tool, i): [LlmConfig | undefined, Path] => [
      tool.impl.kind === "llm" ? tool.impl.llm : undefined,
      ["tools", toolIndex(i), "impl", "llm"],
    ]),
  ];
  for (const [config, path] of configs) {
    if (config?.apiKeyEnv?.startsWith(SERVER_ENV_PREFIX)) {
      report(
        "error",
        "invalid_env_name",
        [...path, "apiKeyEnv"],
        `"${config.apiKeyEnv}" is one of the server's own settings, not an LLM key: name the variable that holds the model's key (e.g. OPENAI_API_KEY).`,
      );
    }
  }
}
