import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
/** server/package.json, the same from src/agents and dist/agents. */
const SERVER_PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../package.json");

function readVersion(file: string): string {
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

let cached: Record<string, string> | undefined;

/**
 * The exact versions installed here of what an exported project depends on: the Waddle packages (all at the
 * server's version), zod, tsx, typescript and @types/node.
 */
export function getPackageVersions(): Record<string, string> {
  if (cached) return cached;
  const waddle = readVersion(SERVER_PACKAGE);
  const versions: Record<string, string> = {
    "@waddle/planner": waddle,
    "@waddle/protocol": waddle,
    "@waddle/server": waddle,
  };
  for (const name of ["zod", "tsx", "typescript", "@types/node"]) {
    versions[name] = readVersion(require.resolve(`${name}/package.json`));
  }
  cached = versions;
  return versions;
}
