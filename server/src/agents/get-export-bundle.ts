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
  moduleTools: BundledModuleTool[];
  /** Agent ids its agent tools name that are not saved: their tools fail at run time. */
  missingAgents: string[];
}

const MAX_SUBAGENTS = 100;

/**
 * Collects the subagents (transitively, by the agent tools' `agentId`) and the module tools (by ref, with
 * the files the registry loaded them from) of an agent.
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
  const refs = [...agents.values()].flatMap((agent) =>
    agent.tools.flatMap((tool) => (tool.impl.kind === "module" ? [tool.impl.ref] : [])),
  );
  const usedPaths = new Map<string, string>();
  const moduleTools = [...new Set(refs)].map((ref): BundledModuleTool => {
    const registered = options.registry?.get(ref);
    if (!registered?.file) return { ref, ...(registered ? { source: registered.source } : {}) };
    let base = path.basename(registered.file);
    const owner = usedPaths.get(base);
    if (owner !== undefined && owner !== registered.file) base = `${usedPaths.size}-${base}`;
    usedPaths.set(base, registered.file);
    return {
      ref,
      source: registered.source,
      file: registered.file,
      projectPath: `tools/${base}`,
      importPath: `./tools/${base.replace(/\.(m?)ts$/, ".$1js")}`,
    };
  });
  return {
    spec,
    subagents: [...agents.values()].filter((agent) => agent !== spec),
    moduleTools,
    missingAgents,
  };
}
