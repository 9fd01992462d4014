import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const designerDir = mkdtempSync(path.join(tmpdir(), "waddle-designer-"));
let server: TestServer;
beforeAll(async () => {
  mkdirSync(path.join(designerDir, "assets"));
  writeFileSync(
    path.join(designerDir, "index.html"),
    '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>',
  );
  writeFileSync(path.join(designerDir, "assets/app.js"), "console.log('designer');");
  server = await startTestServer({
    designerDir,
    createPlanner: async () => Promise.reject(new Error("no runs here")),
  });
});
afterAll(async () => {
  await server.stop();
  rmSync(designerDir, { recursive: true, force: true });
});

describe("the built designer", () => {
  it("serves index.html at / and for client-side routes, and its assets", async () => {
    for (const route of ["/", "/agents/support-triage", "/runs/run_1"]) {
      const page = await server.request(route, { headers: { accept: "text/html" } });
      expect(page.status).toBe(200);
      expect(page.text).toContain('<div id="root">');
      expect(page.headers.get("cache-control")).toBe("no-cache");
    }
    const asset = await server.request("/assets/app.js");
    expect(asset.text).toContain("designer");
    expect(asset.headers.get("content-type")).toContain("javascript");
  });

  it("leaves /api and unknown assets alone", async () => {
    expect((await server.request("/api/nope", { headers: { accept: "text/html" } })).body.code).toBe(
      "not_found",
    );
    expect(
      (await server.request("/assets/missing.js", { headers: { accept: "application/javascript" } })).status,
    ).toBe(404);
    // what a browser sends for a script or a stylesheet of an older build: not index.html with 200
    for (const file of ["/assets/index-0ld.js", "/assets/index-0ld.css", "/favicon.ico"]) {
      expect((await server.request(file, { headers: { accept: "*/*" } })).status, file).toBe(404);
    }
  });
});
