import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "./get-free-port.js";
import { findRedisServer } from "./real-parts.js";

/** A `redis-server` of the test's own, on a free port. */
export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM). Without persistence, what it held is gone: the worst case on purpose. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * Starts `redis-server` on 127.0.0.1 at a free port, without persistence (no RDB, no AOF): a restart
 * loses every job and message, which Waddle must survive since PostgreSQL holds the truth.
 */
export async function startTestRedis(): Promise<TestRedis> {
  const binary = findRedisServer();
  if (binary === undefined) throw new Error("Redis is not installed (apt-get install redis-server).");
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-redis-"));
  const port = await getFreePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = "";
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) resolve();
      };
      started.stdout?.on("data", onData);
      started.stderr?.on("data", onData);
      started.once("exit", (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
    });
  };
  const stop = async () => {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      current.once("exit", () => resolve());
      current.kill("SIGTERM");
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
