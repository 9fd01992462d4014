// The Use dialog's snippets, run the way a person runs them: pasted into bash in a folder outside the
// checkout, against a real server. Built by the same function the dialog uses (getUseSnippets).
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { HealthResponse } from "@waddle/protocol";
import { spawnServer, type SpawnedServer } from "@waddle/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getUseSnippets,
  TOKEN_PLACEHOLDER,
  type UseSnippet,
} from "../../designer/src/dialogs/get-use-snippets.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TOKEN = "use-snippets-token-0123456789";
const AGENT = "support-triage";
// Quotes, a dollar sign and backticks: what a shell would expand if the snippet quoted it wrong.
const QUERY = "My invoice's total shows $5 twice: `duplicate` charge?";

/** A folder under the system's temp folder: no node_modules of the checkout above it. */
const outside = realpathSync(mkdtempSync(path.join(tmpdir(), "waddle-use-snippets-")));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A shell as a person has it: PATH without the checkout's node_modules/.bin, HOME in the temp folder, and an
 * npm that cannot reach a registry, so that a snippet that would fetch a package fails here.
 */
function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const searchPath = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((entry) => entry !== "" && path.relative(repoRoot, entry).startsWith(".."))
    .join(path.delimiter);
  return {
    PATH: searchPath,
    HOME: outside,
    npm_config_registry: "http://127.0.0.1:9/",
    npm_config_offline: "true",
    ...extra,
  };
}

/** Runs `command` with `stdin` (what pasting does), in `cwd`; never blocks this process's event loop. */
function run(options: {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin?: string;
}) {
  return new Promise<Finished>((resolve, reject) => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      timeout: 120_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}

/** A fresh folder outside the checkout for one snippet. */
function freshFolder(name: string): string {
  const folder = path.join(outside, name);
  mkdirSync(folder, { recursive: true });
  return folder;
}

async function runShellSnippet(snippet: UseSnippet, env: NodeJS.ProcessEnv): Promise<Finished> {
  const cwd = freshFolder(`${snippet.id}-${env.WADDLE_TOKEN ? "token" : "open"}`);
  return run({ command: "bash", args: [], cwd, env, stdin: `${snippet.text}\n` });
}

/** The SDK snippet as its hint says: ask.mjs in a project that has `openai` (installed here from the checkout's copy). */
async function runNodeModuleSnippet(snippet: UseSnippet, env: NodeJS.ProcessEnv): Promise<Finished> {
  const cwd = freshFolder(`${snippet.id}-${env.WADDLE_TOKEN ? "token" : "open"}`);
  mkdirSync(path.join(cwd, "node_modules"));
  symlinkSync(path.join(repoRoot, "node_modules/openai"), path.join(cwd, "node_modules/openai"), "dir");
  writeFileSync(path.join(cwd, "ask.mjs"), `${snippet.text}\n`);
  return run({ command: "node", args: ["ask.mjs"], cwd, env });
}

/** The MCP configuration as a client reads it: its url and headers, the token put where it says. */
async function callThroughMcpConfig(snippet: UseSnippet, token: string | undefined): Promise<string> {
  const config = JSON.parse(snippet.text.replaceAll(TOKEN_PLACEHOLDER, token ?? TOKEN_PLACEHOLDER)) as {
    mcpServers: { waddle: { url: string; headers?: Record<string, string> } };
  };
  const { url, headers } = config.mcpServers.waddle;
  const client = new Client({ name: "use-snippets-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: headers ?? {} } }),
  );
  try {
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain(AGENT);
    const result = await client.callTool({ name: AGENT, arguments: { query: QUERY } });
    expect(result.isError ?? false).toBe(false);
    return JSON.stringify(result.content);
  } finally {
    await client.close();
  }
}

it("runs in a folder outside the checkout with no node_modules above it", () => {
  expect(path.relative(repoRoot, outside).startsWith("..")).toBe(true);
  for (let up = outside; up !== path.dirname(up); up = path.dirname(up)) {
    expect(existsSync(path.join(up, "node_modules")), `${up}/node_modules`).toBe(false);
  }
});

for (const token of [undefined, TOKEN]) {
  describe(
    token ? "on a server with a token (WADDLE_TOKEN set in the shell)" : "on a server without a token",
    () => {
      let server: SpawnedServer;
      let snippets: UseSnippet[];
      const env = shellEnv(token ? { WADDLE_TOKEN: token } : {});

      beforeAll(async () => {
        server = await spawnServer({
          env: {
            WADDLE_DATA_DIR: freshFolder(`data-${token ? "token" : "open"}`),
            ...(token ? { WADDLE_TOKEN: token } : {}),
          },
        });
        // What the designer reads, signed in as it is once it has the token.
        const health = HealthResponse.parse(
          await (
            await fetch(
              `${server.url}/api/health`,
              token ? { headers: { authorization: `Bearer ${token}` } } : {},
            )
          ).json(),
        );
        expect(health.cliPath).toBe(path.join(repoRoot, "apps/cli/bin/waddle.mjs"));
        snippets = getUseSnippets({
          origin: server.url,
          agentId: AGENT,
          query: QUERY,
          authRequired: health.authRequired === true,
          cliPath: health.cliPath,
        });
      }, 120_000);
      afterAll(() => server?.stop());

      it("curl: starts a run and reads its events", async () => {
        const result = await runShellSnippet(
          snippets.find(({ id }) => id === "curl")!,
          env,
        );
        expect(result.stderr).toBe("");
        expect(result.status).toBe(0);
        const [started, events] = result.stdout.trim().split("\n");
        const runId = (JSON.parse(started!) as { runId: string }).runId;
        expect(runId).toMatch(/^run_/);
        expect(JSON.parse(events!)).toEqual({ events: expect.any(Array) });
        const run = await fetch(`${server.url}/api/runs/${runId}`, {
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
        expect(((await run.json()) as { query: string }).query).toBe(QUERY);
      });

      it("CLI: runs the agent on the server from the checkout's CLI, never through npx", async () => {
        const cli = snippets.find(({ id }) => id === "cli")!;
        const result = await runShellSnippet(cli, env);
        expect(result.status, result.stdout + result.stderr).toBe(0);
        expect(cli.text).not.toMatch(/\bnpx\b/);
        expect(result.stdout).toContain(`"text":${JSON.stringify(QUERY)}`);
        expect(result.stdout).toMatch(/\n■ answer_complete · /);
      });

      it("OpenAI SDK: answers as a model of /v1", async () => {
        const result = await runNodeModuleSnippet(
          snippets.find(({ id }) => id === "openai")!,
          env,
        );
        expect(result.stderr).toBe("");
        expect(result.status).toBe(0);
        expect(result.stdout.trim()).not.toBe("");
      });

      it("MCP client: lists the agent as a tool and calls it", async () => {
        const content = await callThroughMcpConfig(
          snippets.find(({ id }) => id === "mcp")!,
          token,
        );
        expect(content).not.toBe("[]");
      });
    },
  );
}
