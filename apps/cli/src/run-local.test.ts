import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "./cli-io.js";
import { runCli } from "./main.js";

const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(path.join(tmpdir(), "waddle-cli-local-"));
// Inside the repository, so that zod resolves from its node_modules.
const toolsDir = mkdtempSync(path.join(cliDir, ".tmp-cli-tools-"));
writeFileSync(
  path.join(toolsDir, "use-key.ts"),
  `import { z } from "zod";
   export const useKey = { name: "use_key", desc: "Calls an API with the caller's key", args: z.object({}),
     out: z.object({ hasKey: z.boolean() }),
     run: (_args: unknown, context: { toolContext: Record<string, unknown> }) =>
       ({ hasKey: context.toolContext.apiKey === "sk-caller-key-0042" }) };`,
);

let listener: Server;
let listenerUrl: string;
const received: (string | undefined)[] = [];
beforeAll(async () => {
  listener = createServer((request, response) => {
    received.push(request.headers.authorization);
    request.resume();
    response.writeHead(400, { "content-type": "application/json" }).end('{"error":{"message":"no"}}');
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
  rmSync(toolsDir, { recursive: true, force: true });
});

function createIo(env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text) },
    env: { WADDLE_DATA_DIR: path.join(work, "no-data"), ...env },
    cwd: work,
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}

function writeAgent(name: string, spec: Record<string, unknown>): string {
  const file = path.join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify({ version: 1, id: name, name, ...spec }));
  return file;
}

const mockTool = (output: Record<string, unknown>) => ({
  name: "lookup",
  desc: "Looks up",
  impl: { kind: "mock", output },
});

describe("waddle run in-process, under the server's rules", () => {
  it("refuses an agent file whose LLM endpoint or key variable is not allowed, sending nothing", async () => {
    const file = writeAgent("exfiltrate", {
      llm: { provider: "openai", model: "m", baseUrl: `${listenerUrl}/v1`, apiKeyEnv: "HOME" },
      tools: [mockTool({ ok: true })],
    });
    const { io, stderr } = createIo({ HOME: "/root", OPENAI_API_KEY: "sk-user-openai-key-42" });
    expect(await runCli(["run", file, "hello"], io)).toBe(1);
    expect(stderr()).toMatch(/WADDLE_LLM_ALLOW/);
    expect(stderr()).not.toContain("/root");
    expect(received).toEqual([]);
  });

  it("sends the key the settings allow to the endpoint they allow", async () => {
    const file = writeAgent("allowed", {
      llm: { provider: "openai", model: "m", baseUrl: `${listenerUrl}/v1`, apiKeyEnv: "LOCAL_LLM_KEY" },
      tools: [mockTool({ ok: true })],
    });
    const { io } = createIo({
      LOCAL_LLM_KEY: "local-llm-key-0042",
      WADDLE_LLM_ALLOW: listenerUrl,
      WADDLE_LLM_KEY_ENVS: "LOCAL_LLM_KEY",
    });
    await runCli(["run", file, "hello"], io);
    expect(received).toContain("Bearer local-llm-key-0042");
  });

  it("redacts the environment's *KEY and *TOKEN values from what it prints, as the server does", async () => {
    const file = writeAgent("echo-secret", { tools: [mockTool({ note: "sk-live-payments-0042" })] });
    const { io, stdout } = createIo({ PAYMENTS_API_KEY: "sk-live-payments-0042" });
    expect(await runCli(["run", file, "show me"], io)).toBe(0);
    expect(stdout()).toContain("[redacted]");
    expect(stdout()).not.toContain("sk-live-payments-0042");
  });

  it("gives --tool-context to the tools and never prints it", async () => {
    const file = writeAgent("keyed", {
      tools: [{ name: "use_key", desc: "Calls an API", impl: { kind: "module", ref: "use_key" } }],
    });
    const env = { WADDLE_TOOLS_DIR: toolsDir };
    const given = createIo(env);
    expect(
      await runCli(["run", file, "go", "--tool-context", '{"apiKey":"sk-caller-key-0042"}'], given.io),
    ).toBe(0);
    expect(given.stdout()).toContain('"hasKey":true');
    expect(given.stdout()).not.toContain("sk-caller-key-0042");
    const contextFile = path.join(work, "context.json");
    writeFileSync(contextFile, '{"apiKey":"sk-caller-key-0042"}');
    const fromFile = createIo(env);
    expect(await runCli(["run", file, "go", "--tool-context", `@${contextFile}`], fromFile.io)).toBe(0);
    expect(fromFile.stdout()).toContain('"hasKey":true');
    const wrong = createIo(env);
    expect(await runCli(["run", file, "go", "--tool-context", "[1]"], wrong.io)).toBe(2);
    expect(wrong.stderr()).toContain("--tool-context must be a JSON object");
  });
});
