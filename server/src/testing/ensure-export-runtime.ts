import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * Builds the runtime a `format=ts-project` export ships (server/dist/export-runtime) the way `npm run build`
 * does, for tests that export a ts-project: the unit tests run before the build. Incremental, and one build
 * at a time across test files (the script takes a lock).
 */
export function ensureExportRuntime(): void {
  const result = spawnSync(process.execPath, [path.join(root, "scripts/build-export-runtime.mjs")], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(
      `scripts/build-export-runtime.mjs failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`,
    );
  }
}
