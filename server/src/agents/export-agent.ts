import type { AgentSpec, ExportFormat } from "@waddle/protocol";
import { strToU8, zipSync } from "fflate";
import type { ToolRegistry } from "../tools/tool-registry.js";
import { exportAgentTypeScript } from "./export-agent-typescript.js";
import { loadExportRuntime } from "./export-runtime.js";
import { exportTsProject } from "./export-ts-project.js";
import { getExportBundle } from "./get-export-bundle.js";
import { exportPenguiflow } from "./penguiflow/export-penguiflow.js";

/** One export, ready to send or write: text or a zip. */
export interface AgentExport {
  filename: string;
  contentType: string;
  body: string | Uint8Array;
}

/** Files in a zip under one folder named after the agent, so that unpacking never spills into the cwd. */
export function zipFiles(folder: string, files: Record<string, string>): Uint8Array {
  const entries = Object.fromEntries(
    Object.entries(files).map(([name, text]) => [`${folder}/${name}`, strToU8(text)]),
  );
  return zipSync(entries, { level: 6 });
}

/**
 * An agent in any export format: `json` (the spec), `ts` (one module over `@waddle/server/runtime`),
 * `ts-project` (a zip with package.json, agent.ts, run.ts, …) or `penguiflow` (a zip with catalog.py,
 * planner.py, …). Subagents come from `getAgent`, module tools' files from `registry`. A ts-project builds
 * the runtime it ships on first use when missing (`runtimeDir`, for tests: where that runtime is).
 */
export async function exportAgent(options: {
  spec: AgentSpec;
  format: ExportFormat;
  getAgent: (id: string) => Promise<AgentSpec | undefined>;
  registry?: ToolRegistry;
  runtimeDir?: string;
}): Promise<AgentExport> {
  const { spec, format } = options;
  switch (format) {
    case "json":
      return {
        filename: `${spec.id}.json`,
        contentType: "application/json",
        body: `${JSON.stringify(spec, null, 2)}\n`,
      };
    case "ts":
    case "ts-project": {
      const bundle = await getExportBundle(options);
      if (format === "ts") {
        return {
          filename: `${spec.id}.ts`,
          contentType: "text/plain; charset=utf-8",
          body: exportAgentTypeScript(bundle),
        };
      }
      await loadExportRuntime(options.runtimeDir);
      return {
        filename: `${spec.id}-ts.zip`,
        contentType: "application/zip",
        body: zipFiles(
          spec.id,
          exportTsProject(bundle, options.runtimeDir ? { runtimeDir: options.runtimeDir } : {}),
        ),
      };
    }
    case "penguiflow":
      return {
        filename: `${spec.id}-penguiflow.zip`,
        contentType: "application/zip",
        body: zipFiles(spec.id, exportPenguiflow(spec).files),
      };
  }
}
