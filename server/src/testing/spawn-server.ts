import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, from `server/src/testing` and `server/dist/testing` alike. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** Which server a test starts: the TypeScript sources under tsx (`npm run dev`) or the build (`npm start`). */
export type ServerCode = "source" | "built";

export interface SpawnServerOptions {
  /** Variables of the server process, over PATH, PORT=0 and HOST=127.0.0.1. */
  env?: Record<string, string>;
  /** Also pass this process's environment (before `env`); by default the server sees only the above. */
  inheritEnv?: boolean;
  /** Default `source`. */
  code?: ServerCode;
  /** Fails when the server has not said it listens by then; default 30 s. */
  startTimeoutMs?: number;
  /** Keeps at most this many characters of output (the first ones); default all. */
  outputLimit?: number;
}

export interface SpawnedServer {
  child: ChildProcess;
  pid: number;
  /** The server's base URL, without a trailing slash. */
  url: string;
  /** What the server printed on stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  /** Sends SIGTERM (a clean shutdown) and waits for the exit. */
  stop: () => Promise<void>;
}

/** The node arguments that start the server (see `SpawnServerOptions.code`), from the repository root. */
export function getServerCommand(code: ServerCode = "source"): string[] {
  return code === "source"
    ? ["--conditions=source", "--import", "tsx", "server/src/main.ts"]
    : ["server/dist/main.js"];
}

/**
 * Starts the Waddle server in its own Node process on a free port and waits for its "Waddle listening on"
 * line: the one way tests, the e2e suite and benchmarks start a real server process.
 */
export async function spawnServer(options: SpawnServerOptions = {}): Promise<SpawnedServer> {
  const child = spawn(process.execPath, getServerCommand(options.code), {
    cwd: ROOT,
    env: {
      ...(options.inheritEnv ? process.env : { PATH: process.env.PATH ?? "" }),
      PORT: "0",
      HOST: "127.0.0.1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const limit = options.outputLimit ?? Infinity;
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  let output = "";
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "?")),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not listen within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      if (output.length < limit) output += chunk.toString();
      const match = /Waddle listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace(/\/$/, ""));
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${output}`));
    });
  });
  return {
    child,
    pid: child.pid!,
    url,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
