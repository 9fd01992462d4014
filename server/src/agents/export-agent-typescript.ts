import type { AgentSpec } from "@waddle/protocol";

const KINDS_NEEDING_RESOLVER = new Set(["http", "llm", "agent"]);

/**
 * TypeScript that builds the same planner with `@waddle/planner`: the spec inlined and parsed by
 * `@waddle/protocol`, the LLM client from the spec's own `llm` settings, and options for the module
 * tools and the server-side tool kinds (http, llm, agent) that the caller supplies.
 */
export function exportAgentTypeScript(spec: AgentSpec): string {
  const moduleRefs = [
    ...new Set(spec.tools.flatMap((tool) => (tool.impl.kind === "module" ? [tool.impl.ref] : []))),
  ];
  const resolved = spec.tools
    .filter((tool) => KINDS_NEEDING_RESOLVER.has(tool.impl.kind))
    .map((tool) => `${tool.name} (${tool.impl.kind})`);
  const json = JSON.stringify(spec, null, 2);
  const lines = [
    `// ${spec.name} — exported from Waddle. Builds the same planner with @waddle/planner:`,
    `//   const planner = createPlanner();`,
    `//   const result = await planner.run("your question", { onEvent: (event) => console.log(event.type) });`,
    `import { createLlmClient, ReactPlanner, type ImplResolver, type LlmClient, type StateStore, type ToolDefinition } from "@waddle/planner";`,
    `import { AgentSpec } from "@waddle/protocol";`,
    ``,
    `export const spec = AgentSpec.parse(${json});`,
    ``,
    `export interface CreatePlannerOptions {`,
    `  /** Defaults to the client the spec's \`llm\` describes (the offline model without a key). */`,
    `  llm?: LlmClient;`,
    moduleRefs.length > 0
      ? `  /** Module tools by ref; this agent uses: ${moduleRefs.join(", ")}. */`
      : `  /** Module tools by ref (this agent uses none). */`,
    `  moduleTools?: ReadonlyMap<string, ToolDefinition>;`,
    resolved.length > 0
      ? `  /** Runs the tools the planner does not run itself: ${resolved.join(", ")}. */`
      : `  /** Runs http, llm and agent tools (this agent has none). */`,
    `  resolveImpl?: ImplResolver;`,
    `  /** Where paused runs wait (in memory by default). */`,
    `  stateStore?: StateStore;`,
    `}`,
    ``,
    `export function createPlanner(options: CreatePlannerOptions = {}): ReactPlanner {`,
    `  return ReactPlanner.fromSpec(spec, {`,
    `    llm: options.llm ?? createLlmClient(spec.llm, { env: process.env }),`,
    `    ...(options.moduleTools ? { moduleTools: options.moduleTools } : {}),`,
    `    ...(options.resolveImpl ? { resolveImpl: options.resolveImpl } : {}),`,
    `    ...(options.stateStore ? { stateStore: options.stateStore } : {}),`,
    `  });`,
    `}`,
    ``,
  ];
  return lines.join("\n");
}
