import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { getMeasuredCode } from "../measured-code.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** A Waddle server in its own process. */
export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  /** Stops it with SIGTERM and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * How the server process is started: the built `server/dist/main.js` as `npm start` runs it, or, when
 * this benchmark runs on the sources, `server/src/main.ts` under tsx as `npm run dev` does.
 */
export function getServerCommand(): string[] {
  return getMeasuredCode().sources
    ? ["--conditions=source", "--import", "tsx", "server/src/main.ts"]
    : ["server/dist/main.js"];
}

/** Starts the server (see `getServerCommand`) with `env` and waits for its listening line. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, getServerCommand(), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      // Keep only the head: the run logs that follow are not needed.
      if (output.length < 20_000) output += chunk.toString();
      const match = /Waddle listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then(() => reject(new Error(`the server exited before listening:\n${output}`)));
  });
  return {
    child,
    pid: child.pid!,
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Resident set size now and its peak so far (VmRSS, VmHWM), in MB, from /proc (Linux). */
export function readMemory(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakRssMb: kb("VmHWM") / 1024 };
}
