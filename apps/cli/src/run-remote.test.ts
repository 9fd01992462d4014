import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createWaddleServer, MemoryStore, type WaddleServer } from "@waddle/server";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIo } from "./cli-io.js";
import { runCli } from "./main.js";
import { createTestIo } from "./testing/create-test-io.js";

const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(path.join(tmpdir(), "waddle-cli-remote-"));
const dataDir = path.join(work, "data");
// Inside the repository, so that zod resolves from its node_modules.
const toolsDir = mkdtempSync(path.join(cliDir, ".tmp-cli-remote-tools-"));
writeFileSync(
  path.join(toolsDir, "use-key.ts"),
  `import { z } from "zod";
   export const useKey = { name: "use_key", desc: "Calls an API with the caller's key", args: z.object({}),
     out: z.object({ hasKey: z.boolean() }),
     run: (_args: unknown, context: { toolContext: Record<string, unknown> }) =>
       ({ hasKey: context.toolContext.apiKey === "sk-caller-key-0042" }) };`,
);
const started: WaddleServer[] = [];
afterAll(async () => {
  for (const server of started) await server.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(toolsDir, { recursive: true, force: true });
});

const createIo = (prompt?: (question: string) => Promise<string>) =>
  createTestIo({
    cwd: work,
    env: { WADDLE_DATA_DIR: path.join(work, "no-data") },
    ...(prompt ? { prompt } : {}),
  });

/**
 * An agent whose one tool takes 10 minutes: a run that is still going while a test acts on it, however slow
 * the machine (each test cancels it).
 */
const writeSlowAgent = (id: string): string => {
  const file = path.join(work, `${id}.json`);
  const tool = {
    name: "wait_long",
    timeoutMs: 600_000,
    impl: { kind: "mock", latencyMs: 600_000, output: { ok: true } },
  };
  const spec = { version: 1, id, name: "Slow", tools: [tool], hints: { ordering_hints: ["wait_long"] } };
  writeFileSync(file, JSON.stringify(spec));
  return file;
};

const startServer = async (port = 0, dir = dataDir) => {
  const server = await createWaddleServer({
    port,
    dataDir: dir,
    toolsDir,
    logLevel: "silent",
    designerDir: null,
    env: {},
    importModule: (file) => import(/* @vite-ignore */ file),
  });
  started.push(server);
  return server;
};

describe("waddle run --server with --tool-context", () => {
  it("sends the toolContext again when it answers a pause, so a server restarted meanwhile can go on", async () => {
    const file = path.join(work, "keyed.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        id: "keyed",
        name: "Keyed",
        tools: [
          {
            name: "use_key",
            desc: "Calls an API",
            requiresApproval: true,
            impl: { kind: "module", ref: "use_key" },
          },
        ],
      }),
    );
    const first = await startServer();
    const { io, stdout, stderr } = createIo(async () => {
      // The person answers after the server restarted: it holds no toolContext any more.
      await first.close();
      await startServer(first.port);
      return "y";
    });
    const code = await runCli(
      ["run", file, "use my key", "--server", first.url, "--tool-context", '{"apiKey":"sk-caller-key-0042"}'],
      io,
    );
    expect(code, stderr()).toBe(0);
    expect(stdout()).toContain("⏵ resumed: approve");
    expect(stdout()).toContain('"hasKey":true');
    expect(stdout() + stderr()).not.toContain("sk-caller-key-0042");
  }, 60_000);
});

describe("waddle run --server --channel", () => {
  it("runs what the channel serves, and names a channel the agent does not have", async () => {
    const server = await startServer(0, path.join(work, "data-channel"));
    const released = await fetch(`${server.url}/api/agents/support-triage/releases`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: 1, channel: "staging" }),
    });
    expect(released.status, await released.clone().text()).toBe(201);
    const { io, stderr } = createIo();
    const args = ["run", "support-triage", "Refund?", "--server", server.url, "--channel", "staging"];
    expect(await runCli(args, io), stderr()).toBe(0);
    expect((await server.store.listRuns())[0]).toMatchObject({ agentVersion: 1, channel: "staging" });

    const missing = createIo();
    const code = await runCli(
      ["run", "support-triage", "Refund?", "--server", server.url, "--channel", "nope"],
      missing.io,
    );
    expect(code).toBe(1);
    expect(missing.stderr()).toContain('no channel "nope"');

    const local = createIo();
    expect(await runCli(["run", "support-triage", "Refund?", "--channel", "staging"], local.io)).toBe(2);
    expect(local.stderr()).toMatch(/--channel needs --server/);
  }, 60_000);
});

describe("waddle run --server at a pause nobody answers", () => {
  it("exits 3 and prints how to resume that run, and the printed request resumes it", async () => {
    const server = await startServer(0, path.join(work, "data-unanswered"));
    const { io, stdout, stderr } = createIo();
    const code = await runCli(["run", "email-approval", "Email Dana", "--server", server.url], io);
    expect(code, stderr()).toBe(3);
    expect(stdout()).toContain("⏸ paused (approval_required)");
    const match = /resume it with POST (\/api\/runs\/\S+\/resume) (\{.*?\}) /.exec(stderr());
    expect(match, stderr()).not.toBeNull();
    const [, route, body] = match!;
    const response = await fetch(`${server.url}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(202);
    const runId = route!.split("/")[3]!;
    for (let i = 0; i < 200; i += 1) {
      const run = (await (await fetch(`${server.url}/api/runs/${runId}`)).json()) as { status: string };
      if (run.status === "finished") return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the resumed run did not finish");
  }, 60_000);
});

describe("waddle run --server and Ctrl-C", () => {
  it("stops following with exit 130 and says the run keeps running, and how to cancel it", async () => {
    const server = await startServer(0, path.join(work, "data-interrupt"));
    const file = writeSlowAgent("slow-remote");
    let stdout = "";
    let stderr = "";
    let interrupt: (() => void) | undefined;
    const io: CliIo = {
      stdout: {
        write: (text) => {
          stdout += text;
          // Ctrl-C once the slow tool runs.
          if (text.includes("→ wait_long")) setImmediate(() => interrupt?.());
        },
        isTTY: false,
      },
      stderr: { write: (text) => void (stderr += text) },
      env: { WADDLE_DATA_DIR: path.join(work, "no-data") },
      cwd: work,
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => (interrupt = undefined);
      },
    };
    const code = await runCli(["run", file, "go", "--server", server.url], io);
    expect(code, stderr).toBe(130);
    expect(stdout).toContain("→ wait_long");
    const runId = /run (run_\w+) on /.exec(stderr)?.[1];
    expect(stderr).toContain(`POST /api/runs/${runId}/cancel`);
    expect((await server.store.getRun(runId!))?.status).toBe("running");
    expect(interrupt).toBeUndefined();
    await server.runs.cancelRun(runId!);
  }, 60_000);
});

describe("waddle run --server when the connection drops", () => {
  it("says it lost the server and is reconnecting, instead of waiting in silence", async () => {
    const server = await startServer(0, path.join(work, "data-drop"));
    const file = writeSlowAgent("slow-drop");
    let stderr = "";
    let interrupt: (() => void) | undefined;
    let dropped = false;
    const io: CliIo = {
      stdout: {
        write: (text) => {
          if (!text.includes("→ wait_long") || dropped) return;
          dropped = true;
          // The connection breaks under the client (as when a proxy or the network drops it).
          setImmediate(() => {
            for (const socket of server.io.of("/").sockets.values()) socket.conn.close();
          });
        },
        isTTY: false,
      },
      stderr: {
        write: (text) => {
          stderr += text;
          if (text.includes("Reconnected")) setImmediate(() => interrupt?.());
        },
      },
      env: { WADDLE_DATA_DIR: path.join(work, "no-data") },
      cwd: work,
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => (interrupt = undefined);
      },
    };
    const code = await runCli(["run", file, "go", "--server", server.url], io);
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/Lost the connection to http:\/\/127\.0\.0\.1:\d+ .*reconnecting/);
    const runId = /run (run_\w+) on /.exec(stderr)?.[1];
    await server.runs.cancelRun(runId!);
  }, 60_000);
});

describe("waddle run --server when the server cannot store the run's events", () => {
  it("ends on the run's terminal status instead of waiting for an event that never comes", async () => {
    class NoEventsStore extends MemoryStore {
      override async appendEvents(): Promise<void> {
        throw new Error("SQLITE_FULL: database or disk is full");
      }
    }
    const server = await createWaddleServer({
      port: 0,
      store: new NoEventsStore(),
      logLevel: "silent",
      designerDir: null,
      env: {},
    });
    started.push(server);
    const { io, stderr } = createIo();
    const code = await runCli(["run", "support-triage", "Refund?", "--server", server.url], io);
    const run = (await server.store.listRuns())[0];
    expect(run && ["finished", "failed"]).toContain(run?.status);
    expect(code).toBe(run?.status === "finished" ? 0 : 1);
    expect(stderr()).toContain(`ended ${run?.status} on the server without a final event`);
  }, 30_000);
});
