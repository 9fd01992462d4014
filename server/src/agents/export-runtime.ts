import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { ApiError } from "../shared/api-error.js";

/** server/dist/export-runtime, the same from src/agents and dist/agents. */
export const EXPORT_RUNTIME_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../dist/export-runtime",
);

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
 * (scripts/build-export-runtime.mjs); without them the export answers 500 with `details.reason`
 * `export_runtime_missing` and says to run it.
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
