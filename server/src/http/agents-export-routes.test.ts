import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureExportRuntime } from "../testing/ensure-export-runtime.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// Inside the repository: the unpacked project resolves @waddle/* from the workspace's node_modules.
const dir = mkdtempSync(path.join(serverDir, ".tmp-export-routes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: {} });
});
afterAll(() => server.stop());

async function download(id: string, format: string): Promise<Record<string, Uint8Array>> {
  const response = await fetch(`${server.url}/api/agents/${id}/export?format=${format}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/zip");
  expect(response.headers.get("content-disposition")).toContain("attachment;");
  return unzipSync(new Uint8Array(await response.arrayBuffer()));
}

describe("GET /api/agents/:id/export", () => {
  it("answers an unknown format with 400 listing the formats", async () => {
    const response = await server.request("/api/agents/support-triage/export?format=python");
    expect(response.status).toBe(400);
    const body = response.body as { code: string; message: string; details: unknown };
    expect(body.code).toBe("validation_failed");
    expect(body.message).toBe('Unknown export format "python": use one of json, ts, ts-project, penguiflow.');
    expect(body.details).toEqual({ formats: ["json", "ts", "ts-project", "penguiflow"] });
  });

  it("zips a ts-project whose run.ts runs in a fresh folder against the workspace packages", async () => {
    ensureExportRuntime();
    const files = await download("writing-review", "ts-project");
    const names = Object.keys(files)
      .filter((name) => !name.startsWith("writing-review/vendor/"))
      .sort();
    expect(names).toEqual(
      [
        ".env.example",
        "README.md",
        "agent.ts",
        "package.json",
        "run.ts",
        "tools/clock.ts",
        "tools/text-stats.ts",
        "tsconfig.json",
      ].map((name) => `writing-review/${name}`),
    );
    const packageJson = JSON.parse(strFromU8(files["writing-review/package.json"]!)) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      allowScripts: Record<string, boolean>;
    };
    // npm 11 installs it without asking to approve install scripts: esbuild's (under tsx) is the only one.
    expect(packageJson.allowScripts).toEqual({ esbuild: true });
    // @waddle/* are not published: they come bundled in vendor/; everything else at an exact version.
    expect(packageJson.dependencies).toMatchObject({
      "@waddle/planner": "file:./vendor/waddle-planner",
      "@waddle/protocol": "file:./vendor/waddle-protocol",
      "@waddle/server": "file:./vendor/waddle-server",
    });
    for (const [name, version] of Object.entries({
      ...packageJson.dependencies,
      ...packageJson.devDependencies,
    })) {
      if (!name.startsWith("@waddle/")) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    }
    // What the bundled runtime imports (a2a tools speak A2A through the official SDK), at exact versions.
    expect(Object.keys(packageJson.dependencies).sort()).toEqual([
      "@a2a-js/sdk",
      "@modelcontextprotocol/sdk",
      "@waddle/planner",
      "@waddle/protocol",
      "@waddle/server",
      "openai",
      "tsx",
      "zod",
    ]);
    for (const folder of ["waddle-planner", "waddle-protocol", "waddle-server"]) {
      const vendored = JSON.parse(strFromU8(files[`writing-review/vendor/${folder}/package.json`]!)) as {
        exports: Record<string, { types: string; default: string }>;
      };
      for (const target of Object.values(vendored.exports)) {
        expect(files[`writing-review/vendor/${folder}/${target.default.slice(2)}`]).toBeDefined();
        expect(files[`writing-review/vendor/${folder}/${target.types.slice(2)}`]).toBeDefined();
      }
    }
    for (const [name, data] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), data);
    }
    // Not spawnSync: a blocked event loop lets the server's keep-alive timer cut the next request's socket.
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          "--conditions=source",
          "--import",
          "tsx",
          "run.ts",
          "Review this text: Short words win. Long ones lose.",
        ],
        {
          cwd: path.join(dir, "writing-review"),
          encoding: "utf8",
          env: { PATH: process.env.PATH },
          timeout: 120_000,
        },
        (error, stdout, stderr) =>
          resolve({
            status: error ? (typeof error.code === "number" ? error.code : null) : 0,
            stdout,
            stderr,
          }),
      );
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/\[1\] run_started/);
    expect(result.stdout).toMatch(/tool_end .*"tool":"text_stats"/);
    expect(result.stdout).toMatch(/\nAnswer \(answer_complete\):\n\S/);
  }, 150_000);

  it("zips a PenguiFlow project whose waddle-agent.json imports back as the same agent", async () => {
    const files = await download("sharded-research", "penguiflow");
    const spec = JSON.parse(strFromU8(files["sharded-research/waddle-agent.json"]!)) as unknown;
    const saved = (await server.request("/api/agents/sharded-research")).body as { spec: unknown };
    expect(spec).toEqual(saved.spec);
    const imported = await server.request("/api/agents/import", { method: "POST", json: spec });
    expect(imported.status).toBe(200);
    expect((imported.body as { spec: unknown }).spec).toEqual(saved.spec);
  });
});

describe("GET /api/agents/:id/export?format=ts-project on a server built without the export runtime", () => {
  it("builds the runtime on the first download instead of answering export_runtime_missing", async () => {
    const runtimeDir = path.join(mkdtempSync(path.join(tmpdir(), "waddle-clean-build-")), "export-runtime");
    const clean = await startTestServer({ env: {}, exportRuntimeDir: runtimeDir });
    try {
      expect(existsSync(runtimeDir)).toBe(false);
      const response = await fetch(`${clean.url}/api/agents/support-triage/export?format=ts-project`);
      expect(response.status, await response.clone().text()).toBe(200);
      const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
      for (const file of [
        "package.json",
        "run.ts",
        "vendor/waddle-server/runtime.js",
        "vendor/waddle-planner/index.js",
        "vendor/waddle-protocol/index.js",
      ]) {
        expect(files[`support-triage/${file}`], file).toBeDefined();
      }
      expect(existsSync(path.join(runtimeDir, "manifest.json"))).toBe(true);
    } finally {
      await clean.stop();
      rmSync(path.dirname(runtimeDir), { recursive: true, force: true });
    }
  }, 600_000);
});
