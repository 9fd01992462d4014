import { formatJsonPath, type AgentSpec, type LlmConfig, type SpecIssue } from "@waddle/protocol";
import type { ServerSettingsView } from "./server-settings-view.js";
import { getCardUrl } from "../tools/a2a-card.js";

/** Header values with their secrets filled in (validation reads the card as a call would). */
function resolveHeaders(
  impl: { headers: Record<string, string | { secret: string }> },
  view: ServerSettingsView,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(impl.headers)) {
    const resolved = typeof value === "string" ? value : view.getSecret?.(value.secret);
    if (resolved !== undefined) headers[name] = resolved;
  }
  return headers;
}

type Path = Array<string | number>;

/** Codes whose findings depend on this server (never on the spec alone): warnings, except unknown agents. */
export const SERVER_ISSUE_CODES: ReadonlySet<SpecIssue["code"]> = new Set([
  "host_not_allowed",
  "llm_endpoint_not_allowed",
  "missing_secret",
  "missing_credential",
  "mcp_server_not_configured",
  "mcp_unknown_tool",
  "a2a_card_unavailable",
  "unknown_guard_check",
  "unknown_agent",
]);

/** The URL of an http tool's template with its placeholders filled by a stand-in; undefined when its host is one. */
function getTemplateUrl(template: string): URL | undefined {
  const probe = template.replace(/\{[^}]*\}/g, "x");
  if (!URL.canParse(probe)) return undefined;
  const hostPart = /^[a-z]+:\/\/([^/?#]*)/i.exec(template)?.[1] ?? "";
  return hostPart.includes("{") ? undefined : new URL(probe);
}

/**
 * What this server's settings say about a spec: http hosts and LLM endpoints not allowed, secrets and LLM
 * keys that do not exist, MCP servers not configured, module guard checks not registered (all warnings:
 * fixing the setting is enough, no re-save), and agent tools naming no saved agent (an error: a mistake in
 * the agent).
 */
export async function checkServerSettings(spec: AgentSpec, view: ServerSettingsView): Promise<SpecIssue[]> {
  await view.refresh?.();
  const issues: SpecIssue[] = [];
  const push = (issue: Omit<SpecIssue, "path"> & { path: Path }) =>
    issues.push({ ...issue, path: formatJsonPath(issue.path) });
  const checkLlm = (config: LlmConfig | undefined, path: Path, target: SpecIssue["target"]) => {
    if (!config || config.provider === "offline") return;
    const refusal = view.getLlmEndpointRefusal(config);
    if (refusal) {
      push({
        severity: "warning",
        code: "llm_endpoint_not_allowed",
        path: [...path, "baseUrl"],
        message: `${refusal.origin} is not an LLM endpoint this server allows: runs of this agent are refused until it is.`,
        target,
        fix: { action: "allow_host", label: "Allow host…", host: new URL(refusal.origin).host, list: "llm" },
      });
    }
    if (!view.hasLlmKey(config)) {
      const name = view.getLlmKeyName(config);
      push({
        severity: "warning",
        code: "missing_credential",
        path: [...path, config.apiKeyEnv ? "apiKeyEnv" : "provider"],
        message: `No key for ${config.model}: ${name} is not set on this server, so runs use the offline model instead.`,
        target,
        fix: { action: "add_credential", label: "Add credential…", name },
      });
    }
  };
  /** Warns of each header secret this server lacks; true when every one exists. */
  const checkSecrets = (
    headers: Record<string, string | { secret: string }>,
    at: Path,
    tool: string,
    target: SpecIssue["target"],
  ): boolean => {
    let complete = true;
    for (const [header, value] of Object.entries(headers)) {
      if (typeof value === "string" || view.hasSecret(value.secret)) continue;
      complete = false;
      push({
        severity: "warning",
        code: "missing_secret",
        path: [...at, "headers", header],
        message: `The secret ${value.secret} does not exist on this server: calls of ${tool} fail until it is added.`,
        target,
        fix: { action: "add_secret", label: "Add secret…", name: value.secret },
      });
    }
    return complete;
  };
  /** Warns when `url`'s host is off the http allow-list; true when it is on it. */
  const checkHost = (url: URL, at: Path, tool: string, target: SpecIssue["target"]): boolean => {
    if (view.isHostAllowed(url)) return true;
    push({
      severity: "warning",
      code: "host_not_allowed",
      path: [...at, "url"],
      message: `${url.host} is not on this server's http allow-list (WADDLE_HTTP_ALLOW): calls of ${tool} are refused until it is.`,
      target,
      fix: { action: "allow_host", label: "Allow host…", host: url.host, list: "http" },
    });
    return false;
  };
  checkLlm(spec.llm, ["llm"], { kind: "llm", id: "llm" });
  checkLlm(spec.summarizerLlm, ["summarizerLlm"], { kind: "llm", id: "summarizerLlm" });
  checkLlm(spec.routerLlm, ["routerLlm"], { kind: "llm", id: "routerLlm" });
  for (const [index, tool] of spec.tools.entries()) {
    const at: Path = ["tools", index, "impl"];
    const target = { kind: "tool" as const, id: tool.name };
    const impl = tool.impl;
    if (impl.kind === "http") {
      const url = getTemplateUrl(impl.url);
      if (url) checkHost(url, at, tool.name, target);
      checkSecrets(impl.headers, at, tool.name, target);
    } else if (impl.kind === "a2a") {
      let url: URL | undefined;
      try {
        url = getCardUrl(impl.url);
      } catch {
        push({
          severity: "error",
          code: "invalid_url",
          path: [...at, "url"],
          message: `"${impl.url}" is not a URL: give the A2A agent's address (https://host/a2a/agent) or its card's URL.`,
          target,
        });
      }
      const secrets = checkSecrets(impl.headers, at, tool.name, target);
      // The card is read only when a call could read it: the host allowed and every secret there.
      if (url && checkHost(url, at, tool.name, target) && secrets && view.checkA2aCard) {
        const problem = await view.checkA2aCard(impl.url, resolveHeaders(impl, view));
        if (problem) {
          push({
            severity: "warning",
            code: "a2a_card_unavailable",
            path: [...at, "url"],
            message: `${tool.name}: ${problem}`,
            target,
          });
        }
      }
    } else if (impl.kind === "llm") {
      checkLlm(impl.llm, [...at, "llm"], target);
    } else if (impl.kind === "mcp" && !view.hasMcpServer(impl.server)) {
      const listed = view.listMcpServers();
      push({
        severity: "warning",
        code: "mcp_server_not_configured",
        path: [...at, "server"],
        message: `The MCP server "${impl.server}" is not configured here (WADDLE_MCP_SERVERS ${listed.length > 0 ? `lists ${listed.join(", ")}` : "lists none"}): runs of this agent are refused until it is.`,
        target,
      });
    } else if (impl.kind === "mcp" && view.listMcpTools) {
      const listed = await view.listMcpTools(impl.server);
      if (listed && !listed.includes(impl.tool)) {
        push({
          severity: "warning",
          code: "mcp_unknown_tool",
          path: [...at, "tool"],
          message: `The MCP server "${impl.server}" lists no tool "${impl.tool}" (it lists ${listed.length > 0 ? listed.slice(0, 20).join(", ") : "none"}): calls of ${tool.name} fail until it is renamed or the server offers it.`,
          target,
        });
      }
    } else if (impl.kind === "agent" && impl.agentId !== spec.id && !(await view.hasAgent(impl.agentId))) {
      push({
        severity: "error",
        code: "unknown_agent",
        path: [...at, "agentId"],
        message: `No saved agent "${impl.agentId}": ${tool.name} would fail on every call. Save that agent or pick another.`,
        target,
      });
    }
  }
  checkGuards(spec, view, push, checkLlm);
  return issues;
}

/** Guards' own LLMs (`llm` checks) and their module checks, which only this server's registry knows. */
function checkGuards(
  spec: AgentSpec,
  view: ServerSettingsView,
  push: (issue: Omit<SpecIssue, "path"> & { path: Path }) => void,
  checkLlm: (config: LlmConfig | undefined, path: Path, target: SpecIssue["target"]) => void,
): void {
  const registered = view.listGuardChecks?.();
  for (const [index, guard] of spec.guards.entries()) {
    const at: Path = ["guards", index, "check"];
    const { check } = guard;
    if (check.kind === "llm") checkLlm(check.llm, [...at, "llm"], { kind: "agent" });
    if (check.kind !== "module" || registered === undefined || registered.includes(check.name)) continue;
    push({
      severity: "warning",
      code: "unknown_guard_check",
      path: [...at, "name"],
      message: `No module guard check "${check.name}" is registered on this server (${registered.length > 0 ? `it has ${registered.slice(0, 20).join(", ")}` : "it has none"}): guard "${guard.name}" cannot check anything until a file in WADDLE_TOOLS_DIR exports defineGuardCheck({ name: "${check.name}", … }).`,
      target: { kind: "agent" },
    });
  }
}
