import type { AgentSpec } from "@waddle/protocol";

const KINDS_NEEDING_RESOLVER = new Set(["http", "llm", "agent", "mcp"]);
/** Characters that end a line in TypeScript (LF, CR, U+2028, U+2029) and other control characters. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const LINE_BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const MAX_COMMENT_TEXT = 120;

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
 * The spec as a TypeScript expression. JSON is valid TypeScript, except that a `"__proto__"` key in an object
 * literal sets the prototype instead of a property: such a spec goes in as a string for `JSON.parse`.
 */
function toSpecExpression(spec: AgentSpec): string {
  const json = JSON.stringify(spec, null, 2);
  return json.includes('"__proto__"') ? `JSON.parse(${JSON.stringify(JSON.stringify(spec))})` : json;
}

/**
 * TypeScript that builds the same planner with `@waddle/planner`: the spec inlined as JSON and parsed by
 * `@waddle/protocol`, the LLM client from the spec's own `llm` settings, and options for the module
 * tools and the server-side tool kinds (http, llm, agent, mcp) that the caller supplies. Spec text reaches the
 * code only as JSON, and comments only through `toCommentText`.
 */
export function exportAgentTypeScript(spec: AgentSpec): string {
  const moduleRefs = [
    ...new Set(spec.tools.flatMap((tool) => (tool.impl.kind === "module" ? [tool.impl.ref] : []))),
  ].map(toCommentText);
  const resolved = spec.tools
    .filter((tool) => KINDS_NEEDING_RESOLVER.has(tool.impl.kind))
    .map((tool) => toCommentText(`${tool.name} (${tool.impl.kind})`));
  const lines = [
    `// ${toCommentText(spec.name)} — exported from Waddle. Builds the same planner with @waddle/planner:`,
    `//   const planner = createPlanner();`,
    `//   const result = await planner.run("your question", { onEvent: (event) => console.log(event.type) });`,
    `import { createLlmClient, ReactPlanner, type ImplResolver, type LlmClient, type StateStore, type ToolDefinition } from "@waddle/planner";`,
    `import { AgentSpec } from "@waddle/protocol";`,
    ``,
    `export const spec = AgentSpec.parse(${toSpecExpression(spec)});`,
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
      : `  /** Runs http, llm, agent and mcp tools (this agent has none). */`,
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
