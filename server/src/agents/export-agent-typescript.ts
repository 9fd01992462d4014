import type { AgentSpec, LlmConfig } from "@waddle/protocol";

/** Characters that end a line in TypeScript (LF, CR, U+2028, U+2029) and other control characters. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const LINE_BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const MAX_COMMENT_TEXT = 120;
const DEFAULT_KEY_ENV = "OPENAI_API_KEY";

/**
 * Spec text made safe to sit inside a `//` or `/** … *\/` comment: one line (line terminators and control
 * characters become spaces), no `*\/` that would close the comment, and bounded. Values the code needs go
 * in as JSON instead; this is for the reader only.
 */
export function toCommentText(text: string): string {
  const flat = text.replace(LINE_BREAKS_AND_CONTROLS, " ").replaceAll("*/", "* /").trim();
  return flat.length > MAX_COMMENT_TEXT ? `${flat.slice(0, MAX_COMMENT_TEXT - 1)}…` : flat;
}

/**
 * A JSON value as a TypeScript expression. JSON is valid TypeScript, except that a `"__proto__"` key in an
 * object literal sets the prototype instead of a property: such a value goes in as a string for `JSON.parse`.
 */
function toJsonExpression(value: unknown): string {
  const json = JSON.stringify(value, null, 2);
  return json.includes('"__proto__"') ? `JSON.parse(${JSON.stringify(JSON.stringify(value))})` : json;
}

/** A module tool (or module guard check) the export imports: its ref and its file (`./tools/text-stats.js`). */
export interface ExportedModuleTool {
  /** The tool's ref, or the guard check's name. */
  ref: string;
  /** Set for a module guard check (`defineGuardCheck`), which travels as module tools do. */
  kind?: "guard_check";
  /** Import specifier relative to the exported module; unset when the server does not know the file. */
  importPath?: string;
  /** Where the server loaded it from, for the reader (`examples/text-stats.ts`). */
  source?: string;
}

export interface TypeScriptExportInput {
  spec: AgentSpec;
  /** The agents its agent tools run, and theirs. */
  subagents?: readonly AgentSpec[];
  /** The module tools of the spec and its subagents. */
  moduleTools?: readonly ExportedModuleTool[];
}

/** What the exported module needs from its environment, also listed in a ts-project's `.env.example`. */
export interface ExportNeeds {
  /** Hosts the http tools call (`host[:port]`); hosts filled from args are not listed. */
  httpAllow: string[];
  /** http tools whose host is filled from args: the caller must allow their hosts. */
  templatedHosts: string[];
  /** Origins of the LLM endpoints the specs name. */
  llmAllow: string[];
  /** Key variables the specs name besides OPENAI_API_KEY. */
  llmKeyEnvs: string[];
  /** `{"secret": NAME}` names of http headers. */
  secretNames: string[];
  /** MCP server names the mcp tools use. */
  mcpServers: string[];
  /** True when some LLM config is `openai` (then OPENAI_API_KEY or `apiKeyEnv` is read). */
  usesOpenAi: boolean;
}

function getLlmConfigs(spec: AgentSpec): LlmConfig[] {
  return [
    spec.llm,
    ...(spec.summarizerLlm ? [spec.summarizerLlm] : []),
    ...(spec.routerLlm ? [spec.routerLlm] : []),
    ...(spec.candidateLlms ?? []),
    ...spec.tools.flatMap((tool) => (tool.impl.kind === "llm" && tool.impl.llm ? [tool.impl.llm] : [])),
    ...spec.guards.flatMap((guard) =>
      guard.check.kind === "llm" && guard.check.llm ? [guard.check.llm] : [],
    ),
  ];
}

/** The hosts, endpoints, key variables, secrets and MCP servers the spec and its subagents use. */
export function getExportNeeds(specs: readonly AgentSpec[]): ExportNeeds {
  const sets = {
    httpAllow: new Set<string>(),
    templatedHosts: new Set<string>(),
    llmAllow: new Set<string>(),
    llmKeyEnvs: new Set<string>(),
    secretNames: new Set<string>(),
    mcpServers: new Set<string>(),
  };
  let usesOpenAi = false;
  for (const spec of specs) {
    for (const config of getLlmConfigs(spec)) {
      if (config.provider !== "openai") continue;
      usesOpenAi = true;
      if (config.baseUrl) sets.llmAllow.add(new URL(config.baseUrl).origin);
      if (config.apiKeyEnv && config.apiKeyEnv !== DEFAULT_KEY_ENV && !config.apiKeyEnv.startsWith("WADDLE_"))
        sets.llmKeyEnvs.add(config.apiKeyEnv);
    }
    for (const tool of spec.tools) {
      const impl = tool.impl;
      if (impl.kind === "mcp") sets.mcpServers.add(impl.server);
      if (impl.kind !== "http" && impl.kind !== "a2a") continue;
      for (const value of Object.values(impl.headers)) {
        if (typeof value !== "string") sets.secretNames.add(value.secret);
      }
      const host = getLiteralHost(impl.url);
      if (host === undefined) sets.templatedHosts.add(tool.name);
      else sets.httpAllow.add(host);
    }
  }
  const sorted = (set: Set<string>) => [...set].sort();
  return {
    httpAllow: sorted(sets.httpAllow),
    templatedHosts: sorted(sets.templatedHosts),
    llmAllow: sorted(sets.llmAllow),
    llmKeyEnvs: sorted(sets.llmKeyEnvs),
    secretNames: sorted(sets.secretNames),
    mcpServers: sorted(sets.mcpServers),
    usesOpenAi,
  };
}

/** `host[:port]` of an http tool URL whose host is literal; undefined when args fill it. */
function getLiteralHost(url: string): string | undefined {
  const authority = /^[a-z]+:\/\/([^/?#]*)/i.exec(url)?.[1];
  if (authority === undefined || authority.includes("{")) return undefined;
  try {
    return new URL(url.replace(/\{[^}]*\}/g, "x")).host || undefined;
  } catch {
    return undefined;
  }
}

/** The module tools' imports, `toolModule0`…, for the tools whose file is known. */
function getImports(
  moduleTools: readonly ExportedModuleTool[],
): { name: string; tool: ExportedModuleTool }[] {
  const seen = new Map<string, string>();
  const imports: { name: string; tool: ExportedModuleTool }[] = [];
  for (const tool of moduleTools) {
    if (!tool.importPath || seen.has(tool.importPath)) continue;
    const name = `toolModule${seen.size}`;
    seen.set(tool.importPath, name);
    imports.push({ name, tool });
  }
  return imports;
}

const list = (values: readonly string[]) => values.map(toCommentText).join(", ");

/** A module tool's ref, or `name (guard check)`, for the lists of what the caller must pass. */
export function getModuleLabel(tool: ExportedModuleTool): string {
  return tool.kind === "guard_check" ? `${tool.ref} (guard check)` : tool.ref;
}

/**
 * TypeScript that builds the same planner over `@waddle/server/runtime`, with every tool kind wired: the
 * spec and its subagents inlined as JSON, module tools imported from their files, http tools with their
 * hosts on the allow-list, llm tools with their endpoints, mcp tools from the `mcpServers` configuration.
 * Secrets and keys are read from the environment or passed by the caller, never written here. Spec text
 * reaches the code only as JSON, and comments only through `toCommentText`.
 */
export function exportAgentTypeScript(input: TypeScriptExportInput | AgentSpec): string {
  const { spec, subagents = [], ...rest } = "spec" in input ? input : { spec: input };
  // Without a bundle, every module tool is one the caller passes in.
  const moduleTools: readonly ExportedModuleTool[] =
    rest.moduleTools ??
    [
      ...new Set(
        [spec, ...subagents].flatMap((agent) =>
          agent.tools.flatMap((tool) => (tool.impl.kind === "module" ? [tool.impl.ref] : [])),
        ),
      ),
    ]
      .map((ref): ExportedModuleTool => ({ ref }))
      .concat(
        [
          ...new Set(
            [spec, ...subagents].flatMap((agent) =>
              agent.guards.flatMap((guard) => (guard.check.kind === "module" ? [guard.check.name] : [])),
            ),
          ),
        ].map((name) => ({ ref: name, kind: "guard_check" })),
      );
  const needs = getExportNeeds([spec, ...subagents]);
  const imports = getImports(moduleTools);
  const missing = moduleTools.filter((tool) => !tool.importPath).map(getModuleLabel);
  const lines = [
    `// ${toCommentText(spec.name)} — exported from Waddle. Runs in your process with @waddle/server/runtime:`,
    `//   const outcome = await run("your question", { onEvent: (event) => console.log(event.type) });`,
    `// Keys and secrets come from the environment (see the list below) or from the options, never from this file.`,
    `import {`,
    `  AgentSpec,`,
    `  createAgentRuntime,`,
    `  runAgent,`,
    `  type AgentRuntime,`,
    `  type AgentRuntimeOptions,`,
    `  type PlannerOutcome,`,
    `  type RunAgentOptions,`,
    `} from "@waddle/server/runtime";`,
    ...imports.map(
      ({ name, tool }) =>
        `import * as ${name} from ${JSON.stringify(tool.importPath)}; // ${toCommentText(`${tool.ref}${tool.source ? ` (${tool.source})` : ""}`)}`,
    ),
    ``,
    `export const spec: AgentSpec = AgentSpec.parse(${toJsonExpression(spec)});`,
    ``,
    subagents.length > 0
      ? `/** The agents its agent tools run: ${list(subagents.map((agent) => agent.id))}. */`
      : `/** The agents its agent tools run (none). */`,
    `export const subagents: AgentSpec[] = [${subagents.map((agent) => `AgentSpec.parse(${toJsonExpression(agent)})`).join(", ")}];`,
    ``,
    missing.length > 0
      ? `/** Module tools and guard checks, imported from their files. Not found on the exporting server, pass them in \`moduleTools\`: ${list(missing)}. */`
      : `/** Module tools and guard checks, imported from their files. */`,
    `export const moduleTools: unknown[] = [${imports.map(({ name }) => name).join(", ")}];`,
    ``,
    needs.templatedHosts.length > 0
      ? `/** Hosts the http tools call; add WADDLE_HTTP_ALLOW for the hosts these fill from args: ${list(needs.templatedHosts)}. */`
      : `/** Hosts the http tools call (WADDLE_HTTP_ALLOW adds more). */`,
    `export const httpAllow: string[] = ${JSON.stringify(needs.httpAllow)};`,
    `/** LLM endpoints the spec names, the only ones its keys are sent to besides OPENAI_BASE_URL's. */`,
    `export const llmAllow: string[] = ${JSON.stringify(needs.llmAllow)};`,
    `/** Key variables the spec names besides OPENAI_API_KEY. */`,
    `export const llmKeyEnvs: string[] = ${JSON.stringify(needs.llmKeyEnvs)};`,
    `/** Secrets its http headers name: set WADDLE_SECRET_<NAME> or pass \`secrets\`. */`,
    `export const secretNames: string[] = ${JSON.stringify(needs.secretNames)};`,
    `/** MCP servers its mcp tools use: list them in WADDLE_MCP_SERVERS (the \`mcpServers\` format) or pass \`mcpServers\`. */`,
    `export const mcpServerNames: string[] = ${JSON.stringify(needs.mcpServers)};`,
    ``,
    `export type ExportedAgentOptions = Omit<AgentRuntimeOptions, "spec" | "subagents" | "moduleTools">;`,
    ``,
    `function withAgent(options: ExportedAgentOptions): AgentRuntimeOptions {`,
    `  return {`,
    `    ...options,`,
    `    spec,`,
    `    subagents,`,
    `    moduleTools,`,
    `    httpAllow: [...httpAllow, ...(options.httpAllow ?? [])],`,
    `    llmAllow: [...llmAllow, ...(options.llmAllow ?? [])],`,
    `    llmKeyEnvs: [...llmKeyEnvs, ...(options.llmKeyEnvs ?? [])],`,
    `  };`,
    `}`,
    ``,
    `/** Planners for this agent (\`(await runtime.createPlanner()).planner.run(…)\`); close it when done. */`,
    `export function createRuntime(options: ExportedAgentOptions = {}): Promise<AgentRuntime> {`,
    `  return createAgentRuntime(withAgent(options));`,
    `}`,
    ``,
    `/** Runs the agent once to its finish or pause. */`,
    `export function run(`,
    `  query: string,`,
    `  options: ExportedAgentOptions & Omit<RunAgentOptions, "query" | keyof AgentRuntimeOptions> = {},`,
    `): Promise<PlannerOutcome> {`,
    `  const { onEvent, toolContext, signal, ...rest } = options;`,
    `  return runAgent({`,
    `    ...withAgent(rest),`,
    `    query,`,
    `    ...(onEvent ? { onEvent } : {}),`,
    `    ...(toolContext ? { toolContext } : {}),`,
    `    ...(signal ? { signal } : {}),`,
    `  });`,
    `}`,
    ``,
  ];
  return lines.join("\n");
}
