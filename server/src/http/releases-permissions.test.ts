import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const TOKEN = "bootstrap-token-for-the-release-permissions";
let server: TestServer;

const as = (key: string) => ({ authorization: `Bearer ${key}` });

async function createKey(json: Record<string, unknown>): Promise<string> {
  const created = await server.request("/api/keys", { method: "POST", json, headers: as(TOKEN) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (created.body as { key: string }).key;
}

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN });
});
afterAll(() => server.stop());

describe("who may release to production", () => {
  it("refuses an editor key production (403) but not staging; an editor key with canRelease may; GET /api/keys lists it", async () => {
    const editor = await createKey({ name: "editor", role: "editor" });
    const releaser = await createKey({ name: "releaser", role: "editor", canRelease: true });
    const release = (key: string, channel: string) =>
      server.request("/api/agents/support-triage/releases", {
        method: "POST",
        json: { version: 1, channel },
        headers: as(key),
      });

    const refused = await release(editor, "production");
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain("canRelease");
    expect((await release(editor, "staging")).status).toBe(201);
    const released = await release(releaser, "production");
    expect(released.status, JSON.stringify(released.body)).toBe(201);

    const keys = (await server.request("/api/keys", { headers: as(TOKEN) })).body as {
      keys: { name: string; canRelease?: boolean }[];
    };
    expect(keys.keys.find((key) => key.name === "releaser")).toMatchObject({ canRelease: true });
    expect(keys.keys.find((key) => key.name === "editor")?.canRelease).not.toBe(true);
  });
});
