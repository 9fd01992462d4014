import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Slug, validateAgentSpec, type AgentSpec } from "@waddle/protocol";
import { SqliteStore } from "@waddle/server";
import { formatIssue } from "./validate-command.js";
import { readJsonFile } from "./read-spec-file.js";

/** apps/examples, the same from src/ and dist/. */
export const EXAMPLES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples");

/** A spec that cannot be used; the message lists its issues. */
export class AgentSourceError extends Error {
  readonly code = "agent_not_found" as const;
}

/** The data folder the server uses: `--data-dir`, else WADDLE_DATA_DIR, else ./data. */
export function getDataDir(options: {
  dataDir?: string;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}): string {
  return path.resolve(options.cwd, options.dataDir ?? options.env.WADDLE_DATA_DIR ?? "data");
}

/**
 * Finds an agent for a command: a JSON file, else the id of an agent saved in the local data folder's
 * database (when it exists), else one of the example agents.
 */
export async function loadAgentSpec(options: {
  source: string;
  cwd: string;
  dataDir: string;
}): Promise<AgentSpec> {
  const file = path.resolve(options.cwd, options.source);
  if (existsSync(file) && statSync(file).isFile()) {
    const result = validateAgentSpec(readJsonFile(options.source, options.cwd));
    if (!result.ok) {
      throw new AgentSourceError(
        `${options.source} is not a valid agent spec:\n${result.issues.map(formatIssue).join("\n")}`,
      );
    }
    return result.spec;
  }
  if (!Slug.safeParse(options.source).success) {
    throw new AgentSourceError(
      `"${options.source}" is neither a file nor an agent id (lower-case letters, digits, - and _).`,
    );
  }
  const database = path.join(options.dataDir, "waddle.db");
  if (existsSync(database)) {
    const store = new SqliteStore(database);
    try {
      const record = await store.getAgent(options.source);
      if (record) return record.spec;
    } finally {
      await store.close();
    }
  }
  const example = path.join(EXAMPLES_DIR, "agents", `${options.source}.json`);
  if (existsSync(example)) {
    const result = validateAgentSpec(readJsonFile(example, options.cwd));
    if (result.ok) return result.spec;
  }
  throw new AgentSourceError(
    `No agent "${options.source}": not a file, not in ${database}, not an example. Pass a JSON file, or --server URL to use a running server.`,
  );
}
