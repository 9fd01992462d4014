import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { getFreePort } from "./get-free-port.js";
import { findPostgresBin } from "./real-parts.js";

const run = promisify(execFile);

/** A PostgreSQL cluster of the test's own, in a temporary folder, on a free port. */
export interface TestPostgres {
  /** `postgres://…` of the cluster's `postgres` database. */
  url: string;
  port: number;
  /** A fresh, empty database on the cluster; its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (fast shutdown: clients are disconnected), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes the folder. */
  destroy(): Promise<void>;
}

/** initdb refuses to run as root: as root, the cluster belongs to `postgres` (Debian's) or `nobody`. */
function getClusterUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync("/etc/passwd", "utf8").split("\n");
  for (const name of ["postgres", "nobody"]) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(":");
    if (fields?.[2] && fields[3]) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error("Running as root with neither a postgres nor a nobody user: initdb cannot run.");
}

let databases = 0;

/**
 * Starts a throwaway cluster: `initdb` (trust auth, user `waddle`) and `pg_ctl start` in a temporary
 * folder, listening on 127.0.0.1 at a free port with its unix socket in that folder, fsync off (tests need
 * no durability against power loss, only against restarts). Never touches a system service.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error("PostgreSQL is not installed (apt-get install postgresql).");
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-pg-"));
  const user = getClusterUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, "data");
  const options = {
    env: { PATH: process.env.PATH ?? "", LC_ALL: "C", HOME: dir },
    ...(user ?? {}),
  };
  await run(
    path.join(bin, "initdb"),
    ["-D", data, "-U", "waddle", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"],
    options,
  );
  const port = await getFreePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=300",
  ].join(" ");
  const pgCtl = (...args: string[]) => run(path.join(bin, "pg_ctl"), ["-D", data, ...args], options);
  const start = async () => {
    await pgCtl("-l", path.join(dir, "postgres.log"), "-o", settings, "-w", "-t", "30", "start");
  };
  await start();
  const url = `postgres://waddle@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    port,
    async createDatabase(name) {
      const database = name ?? `waddle_test_${process.pid}_${(databases += 1)}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${database}"`);
      } finally {
        await client.end();
      }
      return `postgres://waddle@127.0.0.1:${port}/${database}`;
    },
    async stop() {
      await pgCtl("-m", "fast", "-w", "stop");
      stopped = true;
    },
    async start() {
      await start();
      stopped = false;
    },
    async destroy() {
      if (!stopped) await pgCtl("-m", "immediate", "-w", "stop").catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
