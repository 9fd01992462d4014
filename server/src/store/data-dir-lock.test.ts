import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentSpec, type RunRecord } from "@waddle/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { createWaddleServer } from "../server.js";
import { spawnServer, type SpawnedServer } from "../testing/spawn-server.js";
import { DataDirLockedError, lockDataDir } from "./data-dir-lock.js";

const dirs: string[] = [];
const spawned: SpawnedServer[] = [];
const newDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-lock-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const server of spawned) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("lockDataDir", () => {
  it("refuses a folder that another live process holds", () => {
    const dir = newDir();
    writeFileSync(path.join(dir, "waddle.lock"), `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`pid ${process.ppid}`));
  });

  it("takes over the lock of a process that has died (kill -9) and releases it", () => {
    const dir = newDir();
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    writeFileSync(path.join(dir, "waddle.lock"), `${dead.stdout}\n`);
    const release = lockDataDir(dir);
    expect(existsSync(path.join(dir, "waddle.lock"))).toBe(true);
    release();
    expect(existsSync(path.join(dir, "waddle.lock"))).toBe(false);
    lockDataDir(dir)();
  });
});

describe("a second server on a data folder in use", () => {
  it("fails to start and leaves the first server's running run alone", async () => {
    const dataDir = newDir();
    const first = await spawnServer({ env: { WADDLE_DATA_DIR: dataDir } });
    spawned.push(first);
    const slow = AgentSpec.parse({
      version: 1,
      id: "slow-lock",
      name: "Slow",
      // held for the whole test (the first server is killed at its end), not for a time a slow machine may pass
      tools: [
        {
          name: "wait_long",
          timeoutMs: 600_000,
          impl: { kind: "mock", latencyMs: 600_000, output: { ok: true } },
        },
      ],
      hints: { ordering_hints: ["wait_long"] },
    });
    const post = (pathname: string, json: unknown) =>
      fetch(`${first.url}${pathname}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(json),
      }).then((response) => response.json() as Promise<Record<string, string>>);
    await post("/api/agents", slow);
    const { runId } = await post("/api/runs", { agentId: "slow-lock", query: "go" });
    const getRun = async () => (await (await fetch(`${first.url}/api/runs/${runId}`)).json()) as RunRecord;
    while ((await getRun()).status !== "running") await new Promise((resolve) => setTimeout(resolve, 50));

    await expect(
      createWaddleServer({ port: 0, dataDir, logLevel: "silent", designerDir: null, env: {} }),
    ).rejects.toThrow(/Another Waddle server .* uses the data folder/);
    expect((await getRun()).status).toBe("running");
    first.child.kill("SIGKILL");
    await first.exited;
  }, 30_000);
});
