import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AgentSpec } from "@waddle/protocol";
import { unzipSync } from "fflate";
import { createWaddleServer, type WaddleServer } from "@waddle/server";
import { ensureExportRuntime } from "@waddle/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./main.js";
import { createTestIo } from "./testing/create-test-io.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const work = mkdtempSync(path.join(tmpdir(), "waddle-cli-"));
const example = (id: string) => path.join(root, "apps/examples/agents", `${id}.json`);

const createIo = (
  options: { prompt?: (question: string) => Promise<string>; env?: Record<string, string> } = {},
) =>
  createTestIo({
    cwd: root,
    env: { WADDLE_DATA_DIR: path.join(work, "no-data"), ...options.env },
    ...(options.prompt ? { prompt: options.prompt } : {}),
  });

let server: WaddleServer;
let serverDir: string;
beforeAll(async () => {
  serverDir = mkdtempSync(path.join(tmpdir(), "waddle-cli-server-"));
  server = await createWaddleServer({
    port: 0,
    dataDir: serverDir,
    logLevel: "silent",
    designerDir: null,
    env: {},
    importModule: (file) => import(/* @vite-ignore */ file),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(serverDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("waddle validate", () => {
  it("accepts a valid spec", async () => {
    const { io, stdout } = createIo();
    expect(await runCli(["validate", example("support-triage")], io)).toBe(0);
    expect(stdout()).toContain('valid agent "support-triage" (3 tools)');
  });

  it("lists each issue with its path and exits 1", async () => {
    const file = path.join(work, "broken.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        id: "Bad Id",
        name: "x",
        tools: [{ name: "parallel", impl: { kind: "mock" } }],
      }),
    );
    const { io, stdout } = createIo();
    expect(await runCli(["validate", file], io)).toBe(1);
    expect(stdout()).toMatch(/error +\$\.id +invalid_slug/);
    expect(stdout()).toMatch(/error +\$\.tools\[0\]\.name +reserved_tool_name/);
    expect(stdout()).toContain("2 error(s)");
  });

  it("explains a missing file and broken JSON", async () => {
    const missing = createIo();
    expect(await runCli(["validate", "nope.json"], missing.io)).toBe(1);
    expect(missing.stderr()).toContain("no such file");
    const file = path.join(work, "not-json.json");
    writeFileSync(file, "{ nope");
    const broken = createIo();
    expect(await runCli(["validate", file], broken.io)).toBe(1);
    expect(broken.stderr()).toContain("is not valid JSON");
  });

  it("reads a file saved with a byte-order mark, as Windows editors write it", async () => {
    const file = path.join(work, "bom.json");
    writeFileSync(file, `\uFEFF${readFileSync(example("support-triage"), "utf8")}`);
    const { io, stdout } = createIo();
    expect(await runCli(["validate", file], io)).toBe(0);
    expect(stdout()).toContain('valid agent "support-triage"');
  });
});

describe("waddle validate --server", () => {
  it("adds what the server's settings say: a host not allowed is a warning, a template mistake an error", async () => {
    const file = path.join(work, "weather.json");
    const tool = (url: string) => ({
      name: "weather",
      desc: "Weather of a city",
      argsSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
      impl: { kind: "http", url },
    });
    const spec = {
      version: 1,
      id: "weather",
      name: "Weather",
      tools: [tool("https://api.example.com/q?q={query}")],
    };
    writeFileSync(file, JSON.stringify(spec));
    const local = createIo();
    expect(await runCli(["validate", file], local.io)).toBe(0);
    expect(local.stdout()).not.toContain("host_not_allowed");
    const remote = createIo();
    expect(await runCli(["validate", file, "--server", server.url], remote.io)).toBe(0);
    expect(remote.stdout()).toMatch(/warning \$\.tools\[0\]\.impl\.url +host_not_allowed: api\.example\.com/);
    expect(remote.stdout()).toContain(`1 warning(s) on ${server.url}`);
    writeFileSync(file, JSON.stringify({ ...spec, tools: [tool("https://api.example.com/{city}")] }));
    const broken = createIo();
    expect(await runCli(["validate", file, "--server", server.url], broken.io)).toBe(1);
    expect(broken.stdout()).toMatch(
      /error +\$\.tools\[0\]\.impl\.url +unknown_template_arg: \{city\} names no argument/,
    );
  });
});

describe("waddle export", () => {
  it("prints an example as JSON and as TypeScript, and writes --out", async () => {
    const json = createIo();
    expect(await runCli(["export", "sharded-research"], json.io)).toBe(0);
    expect(JSON.parse(json.stdout())).toEqual(
      AgentSpec.parse(JSON.parse(readFileSync(example("sharded-research"), "utf8"))),
    );
    const out = path.join(work, "agent.ts");
    const ts = createIo();
    expect(await runCli(["export", "sharded-research", "--format", "ts", "--out", out], ts.io)).toBe(0);
    expect(readFileSync(out, "utf8")).toContain('from "@waddle/server/runtime"');
  });

  it("writes the ts-project and penguiflow zips, locally and from a server", async () => {
    ensureExportRuntime();
    for (const format of ["ts-project", "penguiflow"]) {
      const local = createIo();
      const out = path.join(work, `local-${format}.zip`);
      expect(await runCli(["export", "writing-review", "--format", format, "--out", out], local.io)).toBe(0);
      const localFiles = Object.keys(unzipSync(readFileSync(out)));
      const remote = createIo();
      const remoteOut = path.join(work, `remote-${format}.zip`);
      const argv = [
        "export",
        "writing-review",
        "--format",
        format,
        "--server",
        server.url,
        "--out",
        remoteOut,
      ];
      expect(await runCli(argv, remote.io)).toBe(0);
      expect(Object.keys(unzipSync(readFileSync(remoteOut))).sort()).toEqual(localFiles.sort());
      expect(localFiles).toContain(
        format === "ts-project" ? "writing-review/tools/text-stats.ts" : "writing-review/catalog.py",
      );
    }
  }, 180_000);

  it("exports from a server", async () => {
    const { io, stdout } = createIo();
    expect(await runCli(["export", "email-approval", "--format", "ts", "--server", server.url], io)).toBe(0);
    expect(stdout()).toContain('"id": "email-approval"');
    const missing = createIo();
    expect(await runCli(["export", "ghost", "--server", server.url], missing.io)).toBe(1);
    expect(missing.stderr()).toContain("404");
  });
});

describe("waddle run", () => {
  it("runs an example in-process on the offline model and prints its events and answer", async () => {
    const { io, stdout } = createIo();
    expect(await runCli(["run", "support-triage", "My invoice shows a duplicate charge"], io)).toBe(0);
    const text = stdout();
    expect(text).toContain("▶ support-triage v1 · offline model");
    expect(text).toMatch(/✓ triage \d+ ms/);
    expect(text).toContain("Answer: ");
    expect(text).toContain("■ answer_complete");
  });

  it("runs a spec file against a server over REST and socket.io", async () => {
    const spec = { ...JSON.parse(readFileSync(example("support-triage"), "utf8")), id: "cli-triage" };
    const file = path.join(work, "cli-triage.json");
    writeFileSync(file, JSON.stringify(spec));
    const { io, stdout, stderr } = createIo();
    expect(await runCli(["run", file, "Reset two-factor", "--server", server.url], io)).toBe(0);
    expect(stderr()).toContain("created agent cli-triage");
    expect(stdout()).toContain("■ answer_complete");
    const runs = await server.store.listRuns({ agentId: "cli-triage" });
    expect(runs[0]?.status).toBe("finished");
  });

  it("stops with exit 3 at an approval it cannot answer, and answers one from a prompt", async () => {
    const unanswered = createIo();
    expect(
      await runCli(["run", "email-approval", "Email Dana that the report is ready"], unanswered.io),
    ).toBe(3);
    expect(unanswered.stdout()).toContain("⏸ paused (approval_required)");
    expect(unanswered.stderr()).toContain("--approve or --reject");
    // the run stays paused: leaving it is not an interruption
    expect(unanswered.stdout()).not.toContain("interrupted");
    const questions: string[] = [];
    const prompted = createIo({ prompt: async (question) => (questions.push(question), "y") });
    const code = await runCli(["run", "email-approval", "Email Dana that the report is ready"], prompted.io);
    expect(questions[0]).toMatch(/^Approve send_email /);
    expect(prompted.stdout()).toContain("⏵ resumed: approve");
    expect(code).toBe(0);
  });

  it("refuses a --server that is not an http(s) URL before trying it", async () => {
    for (const argv of [
      ["run", "support-triage", "hi", "--server", "localhost:3000"],
      ["export", "support-triage", "--server", "ftp://localhost:3000"],
      ["run", "support-triage", "hi", "--server", ""],
    ]) {
      const { io, stderr } = createIo();
      expect(await runCli(argv, io), argv.join(" ")).toBe(2);
      expect(stderr()).toContain("--server must be an http:// or https:// URL");
    }
  });

  it("reports usage mistakes with exit 2", async () => {
    for (const argv of [
      [],
      ["run", "support-triage"],
      ["frobnicate"],
      ["export", "x", "--format", "yaml"],
      ["run", "a", "b", "--approve", "--reject"],
      ["validate", "--bogus"],
      ["run", "support-triage", "hi", "--tool-context", "@"],
    ]) {
      const { io, stderr, stdout } = createIo();
      expect(await runCli(argv, io), argv.join(" ")).toBe(2);
      expect(stderr() + stdout()).toContain("Usage: waddle");
    }
  });
});

describe("bin/waddle.mjs", () => {
  it("runs from the sources without a build", () => {
    const result = spawnSync(
      process.execPath,
      [path.join(root, "apps/cli/bin/waddle.mjs"), "validate", example("cached-retrieval")],
      {
        cwd: root,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "" },
      },
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain('valid agent "cached-retrieval"');
    expect(result.status).toBe(0);
  }, 30_000);
});
