import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { runMigrateDown } from "./migrate-down-command.js";
import { applySqliteMigrations } from "./apply-sqlite-migrations.js";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";

const root = mkdtempSync(path.join(tmpdir(), "waddle-migrate-down-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let folders = 0;
/** A data folder whose waddle.db is migrated up to 17 (the releases and run decisions included). */
function makeDataDir(): string {
  const dataDir = path.join(root, `data-${(folders += 1)}`);
  mkdirSync(dataDir);
  const db = new Database(path.join(dataDir, "waddle.db"));
  applySqliteMigrations(
    db,
    SQLITE_MIGRATIONS.filter((migration) => migration.id <= 17),
  );
  db.close();
  return dataDir;
}

async function run(argv: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await runMigrateDown({
    argv,
    env,
    cwd: root,
    stdout: { write: (text) => void (stdout += text) },
    stderr: { write: (text) => void (stderr += text) },
  });
  return { code, stdout, stderr };
}

const hasReleases = (dataDir: string) => {
  const db = new Database(path.join(dataDir, "waddle.db"), { readonly: true });
  try {
    return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'agent_releases'").get() !== undefined;
  } finally {
    db.close();
  }
};

describe("npm run migrate:down", () => {
  it("lists what it would undo on --dry-run, then undoes it, in the data folder the server uses", async () => {
    const dataDir = makeDataDir();
    const dry = await run(["--to", "15", "--dry-run"], { WADDLE_DATA_DIR: dataDir });
    expect(dry).toMatchObject({ code: 0, stderr: "" });
    expect(dry.stdout).toMatch(
      /would undo migration 17 \(run_decisions\)\n.*would undo migration 16 \(releases\)/,
    );
    expect(hasReleases(dataDir)).toBe(true);

    const done = await run(["--to=15"], { WADDLE_DATA_DIR: dataDir });
    expect(done).toMatchObject({ code: 0, stderr: "" });
    expect(done.stdout).toMatch(/undid migration 17 .*\n.*undid migration 16 .*\nNo migration above 15/);
    expect(hasReleases(dataDir)).toBe(false);
    expect((await run(["--to", "15"], { WADDLE_DATA_DIR: dataDir })).stdout).toMatch(/nothing to undo/);
  });

  it("refuses with 1, naming the migration, when one on the way has no down", async () => {
    const dataDir = makeDataDir();
    const refused = await run(["--to", "3"], { WADDLE_DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Migration 15 \(a2a_tasks\) has no down migration/);
    expect(hasReleases(dataDir)).toBe(true);
  });

  it("refuses with 1 while a server holds the data folder, and with 1 when there is no database", async () => {
    const dataDir = makeDataDir();
    // The parent process is alive and is not this one: the lock is a live server's.
    writeFileSync(path.join(dataDir, "waddle.lock"), `${process.ppid}\n`);
    const locked = await run(["--to", "15"], { WADDLE_DATA_DIR: dataDir });
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(new RegExp(`Another Waddle server \\(pid ${process.ppid}\\)`));
    expect(hasReleases(dataDir)).toBe(true);

    const missing = await run(["--to", "15"], { WADDLE_DATA_DIR: path.join(root, "nowhere") });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No database at .*nowhere.*waddle\.db: set WADDLE_DATA_DIR/);
  });

  it("answers 2 with the usage to a command line it cannot follow", async () => {
    for (const argv of [[], ["--to", "x"], ["--to", "-1"], ["--to", "15", "--force"]]) {
      const refused = await run(argv);
      expect(refused.code, argv.join(" ")).toBe(2);
      expect(refused.stderr).toMatch(/usage: npm run migrate:down -- --to <id>/);
    }
    expect((await run(["--to", "15"], { WADDLE_DATABASE_URL: "mysql://x" })).code).toBe(2);
    expect((await run(["--help"])).stdout).toMatch(/usage/);
  });
});
