import type { LlmConfig } from "@waddle/protocol";

/** Which model runs (or ran) an agent, as the run panel names it. */
export interface ModelLabel {
  text: string;
  title: string;
  offline: boolean;
}

const OFFLINE_TITLE =
  "The embedded deterministic offline model: no network, no key. It follows the agent's order, auto-seq edges and groups, fills args from defaults and earlier results, and answers from the observations.";

function getEndpoint(llm: Pick<LlmConfig, "baseUrl">): string {
  if (!llm.baseUrl) return "api.openai.com";
  try {
    return new URL(llm.baseUrl).host;
  } catch {
    return llm.baseUrl;
  }
}

/**
 * The model label: what the run reported (`run_started`'s llm) once there is a run, else what the spec's
 * llm will get on this server. A spec asking for OpenAI with the default key variable runs on the offline
 * model when the server has no OPENAI_API_KEY (health says `offline`); another key variable is the
 * server's business, so the label says it falls back when that variable is unset.
 */
export function getModelLabel(options: {
  llm: Pick<LlmConfig, "provider" | "model" | "baseUrl" | "apiKeyEnv">;
  ran?: { provider: string; model: string; offline: boolean } | null;
  serverOffline?: boolean;
  /** The person chose the offline model for the run (`RunRecord.offlineChosen`). */
  offlineChosen?: boolean;
}): ModelLabel {
  const { llm, ran, serverOffline } = options;
  if (ran) {
    // The offline model reports itself; the spec of the version that ran says what it stood in for.
    if (ran.offline)
      return {
        text: llm.provider === "offline" ? "Offline model" : `Offline model instead of ${llm.model}`,
        title:
          llm.provider === "offline"
            ? OFFLINE_TITLE
            : options.offlineChosen
              ? `${OFFLINE_TITLE} You chose it for this run instead of ${llm.model} at ${getEndpoint(llm)}.`
              : `${OFFLINE_TITLE} The spec asks for ${llm.model} at ${getEndpoint(llm)}, but the server had no key for it.`,
        offline: true,
      };
    return {
      text: `${ran.provider} · ${ran.model}`,
      title: `Ran on ${ran.provider} · ${ran.model} at ${getEndpoint(llm)}.`,
      offline: false,
    };
  }
  if (llm.provider === "offline") return { text: "Offline model", title: OFFLINE_TITLE, offline: true };
  const endpoint = getEndpoint(llm);
  if (!llm.apiKeyEnv && serverOffline)
    return {
      text: "Offline model",
      title: `${OFFLINE_TITLE} The spec asks for ${llm.model} at ${endpoint}, but the server has no OPENAI_API_KEY.`,
      offline: true,
    };
  const key = llm.apiKeyEnv ?? "OPENAI_API_KEY";
  return {
    text: `${llm.model} @ ${endpoint}`,
    title: `${llm.provider} · ${llm.model} at ${endpoint}, with the key in ${key} on the server (the offline model stands in when ${key} is not set).`,
    offline: false,
  };
}
