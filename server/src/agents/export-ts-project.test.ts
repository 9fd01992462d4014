import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AgentSpec } from "@waddle/protocol";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRunSettings } from "../run-settings.js";
import { createRunSetup, type RunSetup } from "../run-setup.js";
import { isApiError } from "../shared/api-error.js";
import { createLogger } from "../shared/logger.js";
import { ensureExportRuntime } from "../testing/ensure-export-runtime.js";
import { getMcpFixtureStdioConfig } from "../testing/mcp-fixture-server.js";
import { exportAgent } from "./export-agent.js";
import { getExportBundle } from "./get-export-bundle.js";
import { exportTsProject } from "./export-ts-project.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const examplesDir = path.join(repoRoot, "apps/examples");
// Outside the repository: nothing in the unpacked project may resolve to the workspace's packages.
const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "waddle-ts-project-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = "http-secret-value-0077";
const KEY = "fixture-key-0077";
let api: Server;
let apiHost: string;
const apiRequests: { url: string; authorization: string | undefined }[] = [];
let fixture: OpenAiFixtureServer;
let setup: RunSetup;

beforeAll(async () => {
  ensureExportRuntime();
  api = createServer((request, response) => {
    apiRequests.push({ url: request.url ?? "", authorization: request.headers.authorization });
    request.resume();
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ title: `Page ${request.url}`, words: 120 }));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiHost = `127.0.0.1:${(api.address() as AddressInfo).port}`;
  fixture = await startOpenAiFixtureServer({ apiKey: KEY });
  const env = { PATH: process.env.PATH };
  setup = await createRunSetup({
    env,
    settings: { ...readRunSettings(env), httpAllow: [apiHost] },
    exampleToolsDir: path.join(examplesDir, "tools"),
    logger: createLogger({ level: "silent" }),
  });
}, 300_000);
afterAll(async () => {
  await setup?.mcp.close();
  await fixture?.close();
  await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
});

/** An agent on an OpenAI-compatible endpoint with an http tool (secret header), an mcp tool and a module tool. */
const spec = () =>
  AgentSpec.parse({
    version: 1,
    id: "fresh-machine",
    name: "Fresh machine",
    llm: { provider: "openai", model: "fixture-model" },
    tools: [
      {
        name: "fetch_page",
        desc: "Fetches a page",
        argsSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        impl: {
          kind: "http",
          url: `http://${apiHost}/pages/{id}`,
          headers: { authorization: { secret: "API" } },
        },
      },
      { name: "say", impl: { kind: "mcp", server: "fixture", tool: "echo" } },
      { name: "stats", impl: { kind: "module", ref: "text_stats" } },
    ],
  });

/** npm and npx with only what they need from this process: no workspace, no npm_* of a running `npm test`. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
  for (const name of [
    "TMPDIR",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
  ]) {
    if (process.env[name]) env[name] = process.env[name];
  }
  for (const name of ["npm_config_cache", "npm_config_registry", "npm_config_userconfig"]) {
    if (process.env[name]) env[name] = process.env[name];
  }
  return env;
}

interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking this process, which serves the fixture and the http API the run calls. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], timeout: 240_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("the ts-project export on a fresh machine", () => {
  it("refuses with a message saying to build when the bundled runtime is missing", async () => {
    const bundle = await getExportBundle({ spec: spec(), getAgent: async () => undefined });
    let thrown: unknown;
    try {
      exportTsProject(bundle, { runtimeDir: path.join(dir, "no-runtime-here") });
    } catch (error) {
      thrown = error;
    }
    expect(isApiError(thrown, "internal")).toBe(true);
    const body = (thrown as { toBody(): { message: string; details: { reason: string } } }).toBody();
    expect(body.message).toContain("run `npm run build`");
    expect(body.details.reason).toBe("export_runtime_missing");
  });

  it("installs from published packages outside the repository and runs against the OpenAI-compatible fixture", async (context) => {
    const exported = await exportAgent({
      spec: spec(),
      format: "ts-project",
      getAgent: async () => undefined,
      registry: setup.registry,
    });
    const zip = exported.body as Uint8Array;
    const files = unzipSync(zip);
    const project = path.join(dir, "fresh-machine");
    for (const [name, data] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), data);
    }
    const packageJson = JSON.parse(strFromU8(files["fresh-machine/package.json"]!)) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const [name, version] of Object.entries({
      ...packageJson.dependencies,
      ...packageJson.devDependencies,
    })) {
      if (name.startsWith("@waddle/")) {
        expect(version).toMatch(/^file:\.\/vendor\/waddle-[a-z]+$/);
        expect(existsSync(path.join(project, version.slice("file:".length), "package.json"))).toBe(true);
      } else {
        expect(version).toMatch(/^\d+\.\d+\.\d+$/);
      }
    }
    expect(Object.keys(packageJson.dependencies)).toEqual(
      expect.arrayContaining(["@waddle/planner", "@waddle/protocol", "@waddle/server", "tsx", "zod"]),
    );
    // Nothing above the project can lend it packages.
    expect(path.relative(repoRoot, project).startsWith("..")).toBe(true);
    for (let up = path.dirname(project); up !== path.dirname(up); up = path.dirname(up)) {
      expect(existsSync(path.join(up, "node_modules")), `${up}/node_modules`).toBe(false);
    }

    const started = Date.now();
    const install = await run(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
      project,
      childEnv(),
    );
    if (install.status !== 0) {
      const ping = await run("npm", ["ping"], project, childEnv());
      if (ping.status !== 0) {
        context.skip(
          `npm registry unreachable and the packages are not cached: ${install.stderr.slice(0, 400)}`,
        );
      }
    }
    expect(install.stderr).not.toMatch(/ERR!/);
    expect(install.status).toBe(0);
    const installMs = Date.now() - started;
    // The runtime resolves inside the project, to its vendored bundle.
    const runtimeDir = realpathSync(path.join(project, "node_modules/@waddle/server"));
    expect(runtimeDir).toBe(path.join(project, "vendor/waddle-server"));
    expect(existsSync(path.join(project, "node_modules/better-sqlite3"))).toBe(false);

    const typecheck = await run("npx", ["tsc", "-p", "."], project, childEnv());
    expect(typecheck.stdout + typecheck.stderr).toBe("");
    expect(typecheck.status).toBe(0);

    fixture.enqueue(
      fixtureReply.json({ next_node: "fetch_page", args: { id: "7" } }),
      fixtureReply.json({ next_node: "say", args: { text: "hello" } }),
      fixtureReply.json({ next_node: "stats", args: { text: "One two three. Four five." } }),
      fixtureReply.finalAnswer("Fetched, echoed and counted."),
    );
    const mcp = getMcpFixtureStdioConfig("fixture");
    if (mcp.transport !== "stdio") throw new Error("the MCP fixture config is a stdio one");
    const served = apiRequests.length;
    const runStarted = Date.now();
    const result = await run(
      "npx",
      ["tsx", "run.ts", "Check page 7"],
      project,
      childEnv({
        OPENAI_API_KEY: KEY,
        OPENAI_BASE_URL: fixture.baseURL,
        WADDLE_SECRET_API: SECRET,
        WADDLE_MCP_SERVERS: JSON.stringify({
          mcpServers: { fixture: { command: mcp.command, args: mcp.args } },
        }),
      }),
    );
    const runMs = Date.now() - runStarted;
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const calls = [...result.stdout.matchAll(/\] tool_(end|error) .*?"tool":"(\w+)"/g)].map(
      ([, kind, tool]) => `${tool}:${kind}`,
    );
    expect(calls).toEqual(["fetch_page:end", "say:end", "stats:end"]);
    expect(result.stdout).toContain("echo: hello");
    expect(result.stdout).toMatch(/\nAnswer \(answer_complete\):\nFetched, echoed and counted\.\n/);
    expect(apiRequests.slice(served)).toEqual([{ url: "/pages/7", authorization: SECRET }]);
    expect(fixture.pending).toBe(0);
    expect(fixture.completionRequests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    console.log(
      `ts-project: zip ${zip.byteLength} bytes, ${Object.keys(files).length} files; npm install ${installMs} ms, run ${runMs} ms`,
    );
  }, 600_000);
});
