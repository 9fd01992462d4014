import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startTestPostgres, startTestRedis, type TestPostgres, type TestRedis } from "@waddle/server/testing";
import { startServerProcess, type ServerProcess } from "../scale/server-process.js";

/** Waddle processes for one measurement: SQLite alone, or queue mode on a fresh database and Redis. */
export interface BenchDeployment {
  label: string;
  instances: ServerProcess[];
  postgres?: TestPostgres;
  redis?: TestRedis;
  databaseUrl?: string;
  stop(): Promise<void>;
}

/** One process on SQLite (the default deployment). */
export async function startSqlite(env: Record<string, string>): Promise<BenchDeployment> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-bench-scale-out-"));
  const server = await startServerProcess({ WADDLE_DATA_DIR: dataDir, ...env });
  return {
    label: "1 process, SQLite",
    instances: [server],
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `roles.length` processes in queue mode on their own PostgreSQL cluster and redis-server. */
export async function startQueueMode(
  roles: readonly ("all" | "api" | "worker")[],
  env: Record<string, string>,
): Promise<BenchDeployment> {
  const [postgres, redis] = await Promise.all([startTestPostgres(), startTestRedis()]);
  const databaseUrl = await postgres.createDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-bench-scale-out-"));
  const instances: ServerProcess[] = [];
  try {
    for (const role of roles) {
      instances.push(
        await startServerProcess({
          WADDLE_DATABASE_URL: databaseUrl,
          WADDLE_REDIS_URL: redis.url,
          WADDLE_ROLE: role,
          WADDLE_DATA_DIR: dataDir,
          ...env,
        }),
      );
    }
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.stop()));
    await Promise.all([postgres.destroy(), redis.destroy()]);
    throw error;
  }
  const count = roles.length;
  return {
    label: `${count} process${count > 1 ? "es" : ""}, PostgreSQL + Redis`,
    instances,
    postgres,
    redis,
    databaseUrl,
    async stop() {
      await Promise.all(
        instances.map(async (instance) => {
          if (instance.child.exitCode !== null || instance.child.signalCode) return;
          instance.child.kill("SIGCONT");
          await instance.stop();
        }),
      );
      await Promise.all([postgres.destroy(), redis.destroy()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** JSON over HTTP to one instance; throws on an error status. */
export async function call<T>(server: ServerProcess, pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${pathname}`, {
    method: body === undefined ? "GET" : "POST",
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}
