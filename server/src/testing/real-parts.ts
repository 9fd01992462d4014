import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/** The outside programs the scale-out tests start themselves (never the system services). */
export type RealPart = "postgres" | "redis";

const POSTGRES_ROOT = "/usr/lib/postgresql";

/** The newest installed PostgreSQL's bin folder (Debian keeps initdb and pg_ctl off PATH), if any. */
export function findPostgresBin(): string | undefined {
  if (!existsSync(POSTGRES_ROOT)) return undefined;
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((name) => existsSync(path.join(POSTGRES_ROOT, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(POSTGRES_ROOT, versions[0], "bin");
}

/** `redis-server` on PATH or in /usr/bin, if any. */
export function findRedisServer(): string | undefined {
  const folders = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/bin", "/usr/local/bin"];
  for (const folder of folders) {
    const candidate = path.join(folder, "redis-server");
    if (folder && existsSync(candidate)) return candidate;
  }
  return undefined;
}

const INSTALL: Record<RealPart, string> = {
  postgres: "PostgreSQL (apt-get install postgresql)",
  redis: "Redis (apt-get install redis-server)",
};

/**
 * Why tests that need `parts` cannot run here, or undefined when they can. Only a developer's machine may
 * skip them: under CI (`CI=true`, as `.ci/run` runs) a missing part throws, so that the suite fails
 * instead of passing without having run.
 */
export function getMissingPartsReason(parts: readonly RealPart[]): string | undefined {
  const missing = parts.filter((part) =>
    part === "postgres" ? findPostgresBin() === undefined : findRedisServer() === undefined,
  );
  if (missing.length === 0) return undefined;
  const reason = `skipped: ${missing.map((part) => INSTALL[part]).join(" and ")} not installed`;
  if (process.env.CI === "true") {
    throw new Error(
      `${reason.replace("skipped: ", "")}, and CI must run these tests: .ci/run installs them.`,
    );
  }
  process.stderr.write(`[waddle tests] ${reason}\n`);
  return reason;
}
