import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RunEvent, RunRecord } from "@waddle/protocol";
import { spawnServer, type SpawnedServer } from "./spawn-server.js";
import { startTestPostgres, type TestPostgres } from "./start-postgres.js";
import { startTestRedis, type TestRedis } from "./start-redis.js";

const TOOLS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "scale-tools");

/** One line of the scale tools' call log. */
export interface ToolCall {
  tool: string;
  phase: "start" | "end";
  pid: number;
  at: number;
}

export interface ClusterInstance extends SpawnedServer {
  role: "all" | "api" | "worker";
  /** fetch on this instance; JSON in and out. */
  request(
    pathname: string,
    init?: { method?: string; json?: unknown },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test answers are read field by field
  ): Promise<{ status: number; body: any }>;
}

/**
 * Waddle processes in queue mode on a PostgreSQL cluster and a redis-server of their own, with the scale
 * tools (whose calls are logged with the pid that ran them) and short leases, so that takeovers are quick.
 */
export interface TestCluster {
  postgres: TestPostgres;
  redis: TestRedis;
  databaseUrl: string;
  instances: ClusterInstance[];
  /** Starts one more instance. */
  start(role: ClusterInstance["role"], env?: Record<string, string>): Promise<ClusterInstance>;
  calls(): ToolCall[];
  getRun(runId: string): Promise<RunRecord>;
  getEvents(runId: string): Promise<RunEvent[]>;
  /** Polls the run until `match` holds (default: ended), failing after `timeoutMs`. */
  waitForRun(runId: string, match?: (run: RunRecord) => boolean, timeoutMs?: number): Promise<RunRecord>;
  destroy(): Promise<void>;
}

/** Short, so that takeovers are quick, yet over what a loaded 2-core machine may delay a renewal. */
export const CLUSTER_LEASE_MS = 4_000;

export async function startTestCluster(env: Record<string, string> = {}): Promise<TestCluster> {
  const [postgres, redis] = await Promise.all([startTestPostgres(), startTestRedis()]);
  const databaseUrl = await postgres.createDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-cluster-"));
  const callLog = path.join(dir, "calls.jsonl");
  writeFileSync(callLog, "");
  const instances: ClusterInstance[] = [];
  const start = async (role: ClusterInstance["role"], extra: Record<string, string> = {}) => {
    const server = await spawnServer({
      env: {
        WADDLE_DATABASE_URL: databaseUrl,
        WADDLE_REDIS_URL: redis.url,
        WADDLE_ROLE: role,
        WADDLE_RUN_LEASE_MS: String(CLUSTER_LEASE_MS),
        WADDLE_TOOLS_DIR: TOOLS_DIR,
        WADDLE_TEST_CALL_LOG: callLog,
        WADDLE_DATA_DIR: dir,
        ...env,
        ...extra,
      },
      startTimeoutMs: 60_000,
    });
    const instance: ClusterInstance = {
      ...server,
      role,
      async request(pathname, init = {}) {
        const response = await fetch(`${server.url}${pathname}`, {
          method: init.method ?? (init.json === undefined ? "GET" : "POST"),
          ...(init.json === undefined
            ? {}
            : { headers: { "content-type": "application/json" }, body: JSON.stringify(init.json) }),
        });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : undefined };
      },
    };
    instances.push(instance);
    return instance;
  };
  const any = () => {
    const alive = instances.find(
      (instance) => instance.child.exitCode === null && !instance.child.signalCode,
    );
    if (!alive) throw new Error("no Waddle instance is running");
    return alive;
  };
  const cluster: TestCluster = {
    postgres,
    redis,
    databaseUrl,
    instances,
    start,
    calls: () =>
      readFileSync(callLog, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ToolCall),
    getRun: async (runId) => (await any().request(`/api/runs/${runId}`)).body as RunRecord,
    getEvents: async (runId) => (await any().request(`/api/runs/${runId}/events`)).body.events as RunEvent[],
    async waitForRun(
      runId,
      match = (run) => ["finished", "failed", "cancelled", "interrupted"].includes(run.status),
      timeoutMs = 30_000,
    ) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const run = await cluster.getRun(runId).catch(() => undefined);
        if (run && match(run)) return run;
        if (Date.now() > deadline) throw new Error(`run ${runId} is ${run?.status}, still not as expected`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async destroy() {
      await Promise.all(
        instances.map(async (instance) => {
          if (instance.child.exitCode !== null || instance.child.signalCode) return;
          instance.child.kill("SIGCONT");
          instance.child.kill("SIGKILL");
          await instance.exited;
        }),
      );
      await Promise.all([postgres.destroy(), redis.destroy()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/** The scale tools' agent: three read steps, an external charge, one more read step, in that order. */
export const SCALE_AGENT = {
  version: 1,
  id: "scale-chain",
  name: "Scale chain",
  description: "Walks read steps around an external charge (scale-out tests).",
  tools: [
    { name: "step_one", sideEffects: "read", impl: { kind: "module", ref: "step_one" } },
    { name: "step_two", sideEffects: "read", impl: { kind: "module", ref: "step_two" } },
    { name: "step_three", sideEffects: "read", impl: { kind: "module", ref: "step_three" } },
    { name: "charge_card", sideEffects: "external", impl: { kind: "module", ref: "charge_card" } },
    { name: "step_four", sideEffects: "read", impl: { kind: "module", ref: "step_four" } },
  ],
  hints: { ordering_hints: ["step_one", "step_two", "step_three", "charge_card", "step_four"] },
};
