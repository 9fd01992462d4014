import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ToolDefinition } from "@waddle/planner";
import { isToolDefinition } from "./tool-registry.js";

/** Imports one module file; the default reads `.ts` through tsx and `.js`/`.mjs` natively. */
export type ModuleImporter = (file: string) => Promise<unknown>;

export interface LoadedTools {
  tools: { definition: ToolDefinition; source: string }[];
  /** Files that failed to import, with the reason: the server logs them and goes on. */
  errors: { file: string; message: string }[];
}

const TOOL_FILE = /\.(?:m?ts|m?js)$/;
const SKIPPED_FILE = /\.(?:test|spec)\.[mc]?[jt]s$|\.d\.[mc]?ts$/;

/** Imports `.ts` through tsx's `tsImport`, so that a plain `node` process can load TypeScript tools. */
export const defaultModuleImporter: ModuleImporter = async (file) => {
  const url = pathToFileURL(file).href;
  if (/\.m?ts$/.test(file)) {
    const { tsImport } = await import("tsx/esm/api");
    return tsImport(url, import.meta.url);
  }
  return import(url);
};

/**
 * Loads every tool a folder's modules export (default or named exports made with `defineTool`, or arrays
 * of them). Test files and declaration files are skipped; subfolders are not searched.
 */
export async function loadToolModules(options: {
  dir: string;
  label: string;
  importModule?: ModuleImporter;
}): Promise<LoadedTools> {
  const importModule = options.importModule ?? defaultModuleImporter;
  const result: LoadedTools = { tools: [], errors: [] };
  const files = readdirSync(options.dir)
    .filter((name) => TOOL_FILE.test(name) && !SKIPPED_FILE.test(name))
    .map((name) => path.join(options.dir, name))
    .filter((file) => statSync(file).isFile())
    .sort();
  for (const file of files) {
    const source = `${options.label}/${path.basename(file)}`;
    try {
      const exports = (await importModule(file)) as Record<string, unknown>;
      const seen = new Set<unknown>();
      for (const value of Object.values(exports).flatMap((entry) =>
        Array.isArray(entry) ? entry : [entry],
      )) {
        if (!isToolDefinition(value) || seen.has(value)) continue;
        seen.add(value);
        result.tools.push({ definition: value, source });
      }
    } catch (error) {
      result.errors.push({ file: source, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}
