import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { ApiError } from "../shared/api-error.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** server/dist/export-runtime, the same from src/agents and dist/agents. */
export const EXPORT_RUNTIME_DIR = path.resolve(here, "../../dist/export-runtime");

/** The script that builds it, in a checkout (a server copied without scripts/ has none). */
const BUILD_SCRIPT = path.resolve(here, "../../../scripts/build-export-runtime.mjs");

/** manifest.json, as scripts/build-export-runtime.mjs writes it. */
const ExportRuntimeManifest = z.object({
  version: z.string(),
  /** Package name → its folder under the runtime folder (and under `vendor/` in a project). */
  packages: z.record(z.string().startsWith("@waddle/"), z.string().regex(/^[a-z0-9-]+$/)),
  /** The npm packages the bundles import, at the exact versions they were built against. */
  dependencies: z.record(z.string(), z.string().regex(/^\d+\.\d+\.\d+/)),
  /** Every file, relative to the runtime folder (posix separators). */
  files: z.array(z.string().regex(/^[a-z0-9-]+\/(?!.*\.\.)[\w./-]+$/)),
});
export type ExportRuntimeManifest = z.infer<typeof ExportRuntimeManifest>;

/** The vendored runtime of a ts-project: its manifest and every file's text. */
export interface ExportRuntime {
  manifest: ExportRuntimeManifest;
  files: Record<string, string>;
}

/** Read once per build: keyed by folder, dropped when manifest.json changes (a rebuild). */
const cache = new Map<string, { mtimeMs: number; runtime: ExportRuntime }>();

function parseManifest(file: string): z.ZodSafeParseResult<ExportRuntimeManifest> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    json = undefined;
  }
  return ExportRuntimeManifest.safeParse(json);
}

/**
 * The bundled @waddle/protocol, @waddle/planner and @waddle/server/runtime that a `format=ts-project` export
 * ships under `vendor/`, since those packages are not published. `npm run build` makes them
 * (scripts/build-export-runtime.mjs), and `loadExportRuntime` on first use; without them the export answers
 * 500 with `details.reason` `export_runtime_missing` and says to run it.
 */
export function readExportRuntime(dir: string = EXPORT_RUNTIME_DIR): ExportRuntime {
  const manifestFile = path.join(dir, "manifest.json");
  if (!existsSync(manifestFile)) {
    throw new ApiError(
      "internal",
      "The ts-project export ships a bundled Waddle runtime that this server was not built with: run `npm run build` (or `node scripts/build-export-runtime.mjs`) and export again.",
      { reason: "export_runtime_missing", path: dir },
    );
  }
  const { mtimeMs } = statSync(manifestFile);
  const cached = cache.get(dir);
  if (cached?.mtimeMs === mtimeMs) return cached.runtime;
  const parsed = parseManifest(manifestFile);
  if (!parsed.success) {
    throw new ApiError(
      "internal",
      "The bundled Waddle runtime's manifest.json is not valid: run `npm run build` again.",
      { reason: "export_runtime_invalid", path: manifestFile, issues: parsed.error.issues.slice(0, 5) },
    );
  }
  const files = Object.fromEntries(
    parsed.data.files.map((file) => [file, readFileSync(path.join(dir, file), "utf8")]),
  );
  const runtime = { manifest: parsed.data, files };
  cache.set(dir, { mtimeMs, runtime });
  return runtime;
}

/** Builds in flight, by folder: concurrent exports wait for one build (the script also locks across processes). */
const builds = new Map<string, Promise<void>>();

function runBuildScript(script: string, dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, "--out", dir],
      { cwd: path.resolve(path.dirname(script), ".."), timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
      (error) => (error ? reject(error) : resolve()),
    );
  });
}

/**
 * `readExportRuntime`, after building the runtime when it is missing and this server runs from a checkout
 * (scripts/build-export-runtime.mjs beside it): the first ts-project export of a server started without
 * `npm run build` (`npm run dev`, an old `npm start`) builds it instead of failing. Takes about a minute.
 */
export async function loadExportRuntime(
  dir: string = EXPORT_RUNTIME_DIR,
  options: { buildScript?: string } = {},
): Promise<ExportRuntime> {
  const script = options.buildScript ?? BUILD_SCRIPT;
  if (!existsSync(path.join(dir, "manifest.json")) && existsSync(script)) {
    let build = builds.get(dir);
    if (!build) {
      build = runBuildScript(script, dir).finally(() => builds.delete(dir));
      builds.set(dir, build);
    }
    try {
      await build;
    } catch {
      throw new ApiError(
        "internal",
        "The ts-project export ships a bundled Waddle runtime, and building it failed: run `node scripts/build-export-runtime.mjs` to see why, fix it and export again.",
        { reason: "export_runtime_build_failed", path: dir },
      );
    }
  }
  return readExportRuntime(dir);
}
