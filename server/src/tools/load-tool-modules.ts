import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isGuardCheckDefinition, type GuardCheckDefinition, type ToolDefinition } from "@waddle/planner";
import { isToolDefinition } from "./tool-registry.js";

/** Imports one module file (`defaultModuleImporter` unless a caller passes its own). */
export type ModuleImporter = (file: string) => Promise<unknown>;

export interface LoadedTools {
  tools: { definition: ToolDefinition; source: string; file: string }[];
  /** Module guard checks (`defineGuardCheck`) the same files export. */
  guardChecks: { definition: GuardCheckDefinition; source: string; file: string }[];
  /** Files that failed to import, with the reason: the server logs them and goes on. */
  errors: { file: string; message: string }[];
}

const TOOL_FILE = /\.(?:m?ts|m?js)$/;
const SKIPPED_FILE = /\.(?:test|spec)\.[mc]?[jt]s$|\.d\.[mc]?ts$/;

interface TsxNamespace {
  import(specifier: string, parentURL: string): Promise<unknown>;
}
let tsxNamespace: Promise<TsxNamespace> | undefined;

/**
 * Imports a TypeScript file through tsx, in one tsx namespace shared by every tool file. (tsx's `tsImport`
 * registers a new namespace, and a new loader hook, per call, and each namespace loaded its own zod,
 * @waddle/planner and @waddle/protocol: about 15 MB per tool file.)
 */
export const importWithTsx: ModuleImporter = async (file) => {
  tsxNamespace ??= import("tsx/esm/api").then(({ register }) => register({ namespace: "waddle-tools" }));
  return (await tsxNamespace).import(pathToFileURL(file).href, import.meta.url);
};

/**
 * True when this very file runs as TypeScript: something in this process (tsx's `--import`, as `npm run dev`
 * starts the server, or vitest) already compiles `.ts` on import.
 */
const TYPESCRIPT_IMPORTS_WORK = import.meta.url.endsWith(".ts");

/**
 * Imports `.ts` through tsx when the server runs built (`npm start`: plain `node`), and every file with a
 * plain `import()` otherwise, so that tools share the server's own zod, @waddle/planner and @waddle/protocol.
 */
export const defaultModuleImporter: ModuleImporter = async (file) => {
  if (/\.m?ts$/.test(file) && !TYPESCRIPT_IMPORTS_WORK) return importWithTsx(file);
  return import(pathToFileURL(file).href);
};

/**
 * Loads every tool and guard check a folder's modules export (default or named exports made with
 * `defineTool` or `defineGuardCheck`, or arrays of them). Test files and declaration files are skipped;
 * subfolders are not searched.
 */
export async function loadToolModules(options: {
  dir: string;
  label: string;
  importModule?: ModuleImporter;
}): Promise<LoadedTools> {
  const importModule = options.importModule ?? defaultModuleImporter;
  const result: LoadedTools = { tools: [], guardChecks: [], errors: [] };
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
        if (seen.has(value)) continue;
        seen.add(value);
        if (isToolDefinition(value)) result.tools.push({ definition: value, source, file });
        else if (isGuardCheckDefinition(value)) result.guardChecks.push({ definition: value, source, file });
      }
    } catch (error) {
      result.errors.push({ file: source, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}
