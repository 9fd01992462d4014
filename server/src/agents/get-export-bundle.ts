import path from "node:path";
import type { AgentSpec } from "@waddle/protocol";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { ExportedModuleTool } from "./export-agent-typescript.js";

/** A module tool of the export, with the file it was loaded from when the server knows it. */
export interface BundledModuleTool extends ExportedModuleTool {
  /** Absolute path of its file on this machine (copied into project exports). */
  file?: string;
  /** Its path inside a project export (`tools/text-stats.ts`). */
  projectPath?: string;
}

/** An agent with everything an export carries: its subagents and its module tools. */
export interface ExportBundle {
  spec: AgentSpec;
  /** The agents its agent tools run, and theirs, without `spec` itself. */
  subagents: AgentSpec[];
  /** Its module tools and module guard checks (`kind: "guard_check"`). */
  moduleTools: BundledModuleTool[];
  /** Agent ids its agent tools name that are not saved: their tools fail at run time. */
  missingAgents: string[];
}

const MAX_SUBAGENTS = 100;

/**
 * Collects the subagents (transitively, by the agent tools' `agentId`), the module tools (by ref) and the
 * module guard checks (by name) of an agent, with the files the registry loaded them from.
 */
export async function getExportBundle(options: {
  spec: AgentSpec;
  getAgent: (id: string) => Promise<AgentSpec | undefined>;
  registry?: ToolRegistry;
}): Promise<ExportBundle> {
  const { spec } = options;
  const agents = new Map<string, AgentSpec>([[spec.id, spec]]);
  const missingAgents: string[] = [];
  const queue = [spec];
  while (queue.length > 0 && agents.size <= MAX_SUBAGENTS) {
    const current = queue.shift()!;
    for (const tool of current.tools) {
      if (tool.impl.kind !== "agent" || agents.has(tool.impl.agentId)) continue;
      const id = tool.impl.agentId;
      if (missingAgents.includes(id)) continue;
      const found = await options.getAgent(id);
      if (!found) missingAgents.push(id);
      else {
        agents.set(id, found);
        queue.push(found);
      }
    }
  }
  const specs = [...agents.values()];
  const refs = specs.flatMap((agent) =>
    agent.tools.flatMap((tool) => (tool.impl.kind === "module" ? [tool.impl.ref] : [])),
  );
  const checkNames = specs.flatMap((agent) =>
    agent.guards.flatMap((guard) => (guard.check.kind === "module" ? [guard.check.name] : [])),
  );
  const usedPaths = new Map<string, string>();
  const bundle = (
    ref: string,
    registered: { source: string; file?: string } | undefined,
    kind?: "guard_check",
  ): BundledModuleTool => {
    const own = { ref, ...(kind ? { kind } : {}) };
    if (!registered?.file) return { ...own, ...(registered ? { source: registered.source } : {}) };
    let base = path.basename(registered.file);
    const owner = usedPaths.get(base);
    if (owner !== undefined && owner !== registered.file) base = `${usedPaths.size}-${base}`;
    usedPaths.set(base, registered.file);
    return {
      ...own,
      source: registered.source,
      file: registered.file,
      projectPath: `tools/${base}`,
      importPath: `./tools/${base.replace(/\.(m?)ts$/, ".$1js")}`,
    };
  };
  const moduleTools = [
    ...[...new Set(refs)].map((ref) => bundle(ref, options.registry?.get(ref))),
    // Module guard checks travel as module tools do: their files are imported into `moduleTools`.
    ...[...new Set(checkNames)].map((name) =>
      bundle(name, options.registry?.getGuardCheck(name), "guard_check"),
    ),
  ];
  return {
    spec,
    subagents: [...agents.values()].filter((agent) => agent !== spec),
    moduleTools,
    missingAgents,
  };
}
