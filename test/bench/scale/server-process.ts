import { readFileSync } from "node:fs";
import { getServerCommand as getCommand, spawnServer, type SpawnedServer } from "@waddle/server/testing";
import { getMeasuredCode } from "../measured-code.js";

/** A Waddle server in its own process. */
export type ServerProcess = SpawnedServer;

/**
 * How the server process is started: the built `server/dist/main.js` as `npm start` runs it, or, when
 * this benchmark runs on the sources, `server/src/main.ts` under tsx as `npm run dev` does.
 */
export function getServerCommand(): string[] {
  return getCommand(getMeasuredCode().sources ? "source" : "built");
}

/** Starts the server (see `getServerCommand`) with `env` and waits for its listening line. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  // Keep only the head of the output: the run logs that follow are not needed.
  return spawnServer({
    env,
    code: getMeasuredCode().sources ? "source" : "built",
    outputLimit: 20_000,
  });
}

/** Resident set size now and its peak so far (VmRSS, VmHWM), in MB, from /proc (Linux). */
export function readMemory(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakRssMb: kb("VmHWM") / 1024 };
}
