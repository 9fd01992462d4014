import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isApiError } from "../shared/api-error.js";
import { loadExportRuntime } from "./export-runtime.js";

const dir = mkdtempSync(path.join(tmpdir(), "waddle-export-runtime-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(promise: Promise<unknown>): Promise<{ message: string; details: { reason: string } }> {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(isApiError(thrown, "internal")).toBe(true);
  return (thrown as { toBody(): { message: string; details: { reason: string } } }).toBody();
}

describe("loadExportRuntime", () => {
  it("says to run npm run build when the runtime is missing and no build script is beside the server", async () => {
    const body = await refusal(
      loadExportRuntime(path.join(dir, "none"), { buildScript: path.join(dir, "no-such-script.mjs") }),
    );
    expect(body.details.reason).toBe("export_runtime_missing");
    expect(body.message).toContain("run `npm run build`");
  });

  it("says how to see why when building it fails, and builds again on the next export", async () => {
    const script = path.join(dir, "failing-build.mjs");
    const calls = path.join(dir, "calls");
    writeFileSync(
      script,
      `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(calls)}, "x");\nprocess.exit(1);\n`,
    );
    const target = path.join(dir, "failing");
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const body = await refusal(loadExportRuntime(target, { buildScript: script }));
      expect(body.details.reason).toBe("export_runtime_build_failed");
      expect(body.message).toContain("node scripts/build-export-runtime.mjs");
    }
    expect(readFileSync(calls, "utf8"), "a failed build is not taken for a built one").toBe("xx");
  });

  it("runs one build for exports that ask at the same time", async () => {
    const script = path.join(dir, "one-build.mjs");
    const calls = path.join(dir, "one-build-calls");
    // A stand-in build: writes a valid manifest with no files into --out.
    writeFileSync(
      script,
      [
        'import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";',
        'import path from "node:path";',
        'const out = process.argv[process.argv.indexOf("--out") + 1];',
        `appendFileSync(${JSON.stringify(calls)}, "x");`,
        "mkdirSync(out, { recursive: true });",
        'writeFileSync(path.join(out, "manifest.json"), JSON.stringify({ version: "0.0.1", packages: {}, dependencies: {}, files: [] }));',
      ].join("\n"),
    );
    const target = path.join(dir, "one-build");
    const runtimes = await Promise.all([
      loadExportRuntime(target, { buildScript: script }),
      loadExportRuntime(target, { buildScript: script }),
    ]);
    expect(runtimes.map((runtime) => runtime.manifest.version)).toEqual(["0.0.1", "0.0.1"]);
    await loadExportRuntime(target, { buildScript: script });
    expect(readFileSync(calls, "utf8")).toBe("x");
  });
});
