import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { z } from "zod";
import { ApiError } from "../shared/api-error.js";
import { lockDataDir } from "./data-dir-lock.js";
import { revertPgMigrations } from "./pg-migration-revert.js";
import { revertSqliteMigrations } from "./sqlite-migration-revert.js";
import type { StoreMigration } from "./store-migration.js";

export const MIGRATE_DOWN_USAGE = [
  "usage: npm run migrate:down -- --to <id> [--dry-run]",
  "  Undoes the store's migrations above <id>, latest first, so that an older Waddle build can open it.",
  "  Stop every server on the database first. The database is the server's: WADDLE_DATABASE_URL",
  "  (PostgreSQL) when set, else $WADDLE_DATA_DIR/waddle.db (default ./data).",
  "  --dry-run  list what would be undone, change nothing",
].join("\n");

/** Where the command writes; tests pass buffers, the entry passes the process. */
export interface MigrateDownIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: { write(text: string): void };
  stderr: { write(text: string): void };
}

const TargetId = z.coerce.number().int().nonnegative();

/** Reads `--to` and `--dry-run`; undefined after printing why the command line cannot be followed. */
function readArgs(io: MigrateDownIo): { toId: number; dryRun: boolean } | "help" | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...io.argv],
      options: {
        to: { type: "string" },
        "dry-run": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n${MIGRATE_DOWN_USAGE}\n`);
    return undefined;
  }
  if (values.help) return "help";
  const toId = TargetId.safeParse(values.to);
  if (values.to === undefined || !toId.success) {
    io.stderr.write(
      `--to needs the id of the migration to go back to (a whole number), not ${JSON.stringify(values.to ?? null)}.\n${MIGRATE_DOWN_USAGE}\n`,
    );
    return undefined;
  }
  return { toId: toId.data, dryRun: values["dry-run"] === true };
}

/** The database's migrations undone (or, with `dryRun`, to undo), on PostgreSQL or the data folder's SQLite. */
async function revert(
  io: MigrateDownIo,
  args: { toId: number; dryRun: boolean },
): Promise<{ label: string; plan: StoreMigration[] }> {
  const databaseUrl = io.env.WADDLE_DATABASE_URL?.trim();
  if (databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new ApiError(
        "bad_request",
        "WADDLE_DATABASE_URL must be a postgres://user:password@host:port/database URL.",
      );
    }
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      return { label: "PostgreSQL (WADDLE_DATABASE_URL)", plan: await revertPgMigrations(pool, args) };
    } finally {
      await pool.end();
    }
  }
  const dataDir = path.resolve(io.cwd, io.env.WADDLE_DATA_DIR?.trim() || "data");
  const file = path.join(dataDir, "waddle.db");
  if (!existsSync(file)) {
    throw new ApiError(
      "not_found",
      `No database at ${file}: set WADDLE_DATA_DIR to the server's data folder.`,
    );
  }
  // A server on the folder would go on writing to tables this removes: the folder's lock says there is none.
  const unlock = lockDataDir(dataDir);
  try {
    const db = new Database(file, { fileMustExist: true });
    try {
      db.pragma("busy_timeout = 5000");
      return { label: file, plan: revertSqliteMigrations(db, args) };
    } finally {
      db.close();
    }
  } finally {
    unlock();
  }
}

/**
 * `npm run migrate:down -- --to <id> [--dry-run]`: exit 0 when the database is at `<id>` or below, 1 when
 * it was refused (a migration without down, a server holding the folder, no database), 2 on bad input.
 */
export async function runMigrateDown(io: MigrateDownIo): Promise<number> {
  const args = readArgs(io);
  if (args === "help") {
    io.stdout.write(`${MIGRATE_DOWN_USAGE}\n`);
    return 0;
  }
  if (!args) return 2;
  let result;
  try {
    result = await revert(io, args);
  } catch (error) {
    // A refusal says what to do; anything else (PostgreSQL unreachable, a down that failed) is reported as is.
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof ApiError && error.code === "bad_request" ? 2 : 1;
  }
  const { label, plan } = result;
  if (plan.length === 0) {
    io.stdout.write(`${label}: nothing to undo, no applied migration is above ${args.toId}.\n`);
    return 0;
  }
  const verb = args.dryRun ? "would undo" : "undid";
  for (const migration of plan)
    io.stdout.write(`${label}: ${verb} migration ${migration.id} (${migration.name})\n`);
  if (!args.dryRun) {
    io.stdout.write(
      `No migration above ${args.toId} is applied now: start the Waddle build that expects that.\n`,
    );
  }
  return 0;
}
