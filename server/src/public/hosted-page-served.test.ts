import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const designerDir = mkdtempSync(path.join(tmpdir(), "waddle-hosted-served-"));
let server: TestServer;

const settings = (patch: Record<string, unknown> = {}) => ({
  enabled: true,
  title: "Support",
  allowedOrigins: ["https://shop.example"],
  showSteps: "names",
  ...patch,
});

beforeAll(async () => {
  writeFileSync(
    path.join(designerDir, "chat.html"),
    '<!doctype html><html><head><title>Chat</title></head><body><div id="chat-root"></div></body></html>',
  );
  writeFileSync(path.join(designerDir, "index.html"), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(designerDir, "embed.js"), "(function(){})();");
  server = await startTestServer({ designerDir, exampleAgentsDir: null });
  await server.store.createAgent({
    spec: AgentSpec.parse({
      version: 1,
      id: "support",
      name: "Support",
      tools: [{ name: "lookup", desc: "Looks up.", impl: { kind: "mock", output: {} } }],
    }),
  });
});
afterAll(async () => {
  await server.stop();
  rmSync(designerDir, { recursive: true, force: true });
});

describe("the hosted page on the server (issue 33)", () => {
  it("serves a published chat with its current key, framed by its origins; 404 once it is off or rotated away from", async () => {
    const put = await server.request("/api/agents/support/public", { method: "PUT", json: settings() });
    expect(put.status, put.text).toBe(200);
    const { publicId, publishableKey } = put.body as { publicId: string; publishableKey: string };

    const page = await server.request(`/chat/${publicId}`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`content="${publishableKey}"`);
    expect(page.headers.get("content-security-policy")).toMatch(
      /frame-ancestors 'self' https:\/\/shop\.example$/,
    );

    const rotated = await server.request("/api/agents/support/public/rotate-key", { method: "POST" });
    const fresh = await server.request(`/chat/${publicId}`);
    expect(fresh.text).toContain(`content="${(rotated.body as { publishableKey: string }).publishableKey}"`);
    expect(fresh.text).not.toContain(publishableKey);

    await server.request("/api/agents/support/public", { method: "PUT", json: settings({ enabled: false }) });
    const off = await server.request(`/chat/${publicId}`, { headers: { accept: "text/html" } });
    expect(off.status).toBe(404);
    expect(off.text).not.toContain("waddle-public-key");
  });

  it("answers 404, never the designer, for a chat that does not exist", async () => {
    const page = await server.request("/chat/pub_0123abcd", { headers: { accept: "text/html" } });
    expect(page.status).toBe(404);
    expect(page.text).toContain("Chat not available");
    expect(page.text).not.toContain('id="root"');
  });

  it("serves embed.js across origins", async () => {
    const script = await server.request("/embed.js", { headers: { accept: "*/*" } });
    expect(script.status).toBe(200);
    expect(script.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
  });
});
