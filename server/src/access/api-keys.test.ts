import { readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { AgentSpec } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { UNAUTHORIZED_MESSAGE } from "./access-guard.js";
import { generateApiKey, hashSecret, parseApiKey, verifySecret } from "./api-key-secret.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const start = (token?: string) =>
  startTestServer({
    exampleAgentsDir: null,
    ...(token ? { token } : {}),
    createPlanner: async () => {
      throw new Error("this suite runs no agent");
    },
  });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const spec = (id: string) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: `Agent ${id}`,
    tools: [{ name: "lookup", desc: "Looks a record up.", impl: { kind: "mock", output: { found: true } } }],
  });

function open(url: string, token?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(url, {
      transports: ["websocket"],
      forceNew: true,
      reconnection: false,
      ...(token === undefined ? {} : { auth: { token } }),
    });
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
}

describe("key secrets", () => {
  it("are wdl_ and 43 url-safe random characters after the lookup id, verified against a salted scrypt hash", async () => {
    const { key, id, secret } = generateApiKey();
    expect(key).toMatch(/^wdl_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(parseApiKey(key)).toEqual({ id, secret });
    const first = await hashSecret(secret);
    const second = await hashSecret(secret);
    expect(first).not.toBe(second);
    expect(first).not.toContain(secret);
    expect(await verifySecret(secret, first)).toBe(true);
    expect(await verifySecret(`${secret.slice(0, -1)}A`, first)).toBe(secret.endsWith("A"));
    expect(parseApiKey("wdl_short")).toBeUndefined();
  });
});

describe("local start and sign-in", () => {
  it("needs no key on loopback without token and keys, then needs one once a key exists", async () => {
    server = await start();
    expect((await server.request("/api/agents")).status).toBe(200);
    expect((await server.request("/api/me")).body).toMatchObject({
      name: "local",
      role: "admin",
      agents: null,
    });
    const created = await server.request("/api/keys", {
      method: "POST",
      json: { name: "first admin", role: "admin" },
    });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^wdl_/);
    const none = await server.request("/api/agents");
    expect(none.status).toBe(401);
    expect((await server.request("/api/me", { headers: bearer(created.body.key) })).body).toEqual(
      expect.objectContaining({ name: "first admin", role: "admin", agents: null }),
    );
    // Health stays public; the key never appears in the list.
    expect((await server.request("/api/health")).status).toBe(200);
    const list = await server.request("/api/keys", { headers: bearer(created.body.key) });
    expect(JSON.stringify(list.body)).not.toContain((created.body.key as string).slice(17));
    expect(list.body.keys[0]).not.toHaveProperty("hash");
    // Revoking the last admin key without WADDLE_TOKEN would lock everyone out.
    const revoke = await server.request(`/api/keys/${created.body.id}`, {
      method: "DELETE",
      headers: bearer(created.body.key),
    });
    expect(revoke.status).toBe(409);
    expect(revoke.body.details.reason).toBe("last_admin_key");
  });

  it("tells each caller whether it may release to production (admins, editor keys with canRelease)", async () => {
    const started = await start();
    server = started;
    const admin = (await started.request("/api/keys", { method: "POST", json: { name: "a", role: "admin" } }))
      .body.key as string;
    const create = async (json: Record<string, unknown>) =>
      (await started.request("/api/keys", { method: "POST", json, headers: bearer(admin) })).body
        .key as string;
    const releaser = await create({ name: "r", role: "editor", canRelease: true });
    const editor = await create({ name: "e", role: "editor" });
    const me = async (key: string) => (await started.request("/api/me", { headers: bearer(key) })).body;
    expect(await me(admin)).toMatchObject({ role: "admin", canRelease: true });
    expect(await me(releaser)).toMatchObject({ role: "editor", canRelease: true });
    expect(await me(editor)).toMatchObject({ role: "editor", canRelease: false });
  });

  it("answers every kind of bad key with one 401 body", async () => {
    server = await start();
    const admin = (await server.request("/api/keys", { method: "POST", json: { name: "a", role: "admin" } }))
      .body;
    const viewer = (
      await server.request("/api/keys", {
        method: "POST",
        headers: bearer(admin.key),
        json: { name: "v", role: "viewer" },
      })
    ).body;
    await server.request(`/api/keys/${viewer.id}`, { method: "DELETE", headers: bearer(admin.key) });
    const id = (admin.key as string).slice(4, 16);
    const secret = (admin.key as string).slice(17);
    const bodies = new Set<string>();
    for (const headers of [
      {},
      { authorization: "Basic abc" },
      { authorization: "Bearer" },
      { authorization: `Bearer wdl_${id}_${secret.slice(0, -2)}xx` },
      { authorization: `Bearer wdl_AAAAAAAAAAAA_${secret}` },
      { authorization: "Bearer not-a-key" },
      bearer(viewer.key),
    ]) {
      const response = await server.request("/api/agents", { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      bodies.add(response.text);
    }
    expect([...bodies]).toEqual([JSON.stringify({ code: "unauthorized", message: UNAUTHORIZED_MESSAGE })]);
    expect([...bodies][0]).not.toContain(secret);
  });

  it("lets WADDLE_TOKEN in as the bootstrap admin, and refuses no key even with it set", async () => {
    server = await start("the-bootstrap-token");
    expect((await server.request("/api/me", { headers: bearer("the-bootstrap-token") })).body).toMatchObject({
      name: "WADDLE_TOKEN",
      role: "admin",
    });
    expect((await server.request("/api/me")).status).toBe(401);
  });
});

describe("bad input to POST /api/keys", () => {
  it("is a 400 for a role outside the four, an unknown agent, a past expiry and a malformed rate limit", async () => {
    server = await start("tok");
    await server.store.createAgent({ spec: spec("alpha") });
    const post = (json: unknown) =>
      server!.request("/api/keys", { method: "POST", headers: bearer("tok"), json });
    expect((await post({ name: "x", role: "owner" })).status).toBe(400);
    const unknown = await post({ name: "x", role: "viewer", agents: ["ghost"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("ghost");
    expect((await post({ name: "x", role: "viewer", expiresAt: "2001-01-01T00:00:00Z" })).status).toBe(400);
    expect((await post({ name: "x", role: "viewer", rateLimit: "60 per minute" })).status).toBe(400);
    expect((await post({ name: "", role: "viewer" })).status).toBe(400);
    expect((await post({ name: "x", role: "viewer", extra: 1 })).status).toBe(400);
    expect((await post({ name: "x", role: "viewer", agents: ["alpha"], rateLimit: "5/s" })).status).toBe(201);
    expect(
      (await server.request("/api/keys/nope", { method: "DELETE", headers: bearer("tok") })).status,
    ).toBe(404);
  });

  it("stores the 60/min style rateLimit and shows it in the list", async () => {
    server = await start("tok");
    await server.request("/api/keys", {
      method: "POST",
      headers: bearer("tok"),
      json: { name: "limited", role: "runner", rateLimit: "60/min", canDecide: true },
    });
    const list = await server.request("/api/keys", { headers: bearer("tok") });
    expect(list.body.keys[0]).toMatchObject({
      name: "limited",
      rateLimit: "60/min",
      canDecide: true,
      role: "runner",
    });
  });
});

describe("revoked and expired keys", () => {
  it("refuses a revoked key at once and cuts its open sockets", async () => {
    server = await start("tok");
    const runner = (
      await server.request("/api/keys", {
        method: "POST",
        headers: bearer("tok"),
        json: { name: "r", role: "runner" },
      })
    ).body;
    expect((await server.request("/api/agents", { headers: bearer(runner.key) })).status).toBe(200);
    const socket = await open(server.url, runner.key);
    const cut = new Promise<string>((resolve) => socket.once("disconnect", (reason) => resolve(reason)));
    expect(
      (await server.request(`/api/keys/${runner.id}`, { method: "DELETE", headers: bearer("tok") })).status,
    ).toBe(204);
    expect(await cut).toBe("io server disconnect");
    expect((await server.request("/api/agents", { headers: bearer(runner.key) })).status).toBe(401);
    await expect(open(server.url, runner.key)).rejects.toThrow(/unauthorized/);
    await expect(open(server.url)).rejects.toThrow(/unauthorized/);
    const listed = await server.request("/api/keys", { headers: bearer("tok") });
    expect(listed.body.keys[0].revokedAt).toEqual(expect.any(String));
    expect(listed.body.keys[0].lastUsedAt).toEqual(expect.any(String));
  });

  it("refuses a key past its expiry", async () => {
    server = await start("tok");
    const fresh = generateApiKey();
    const stale = generateApiKey();
    for (const [created, expiresAt] of [
      [fresh, new Date(Date.now() + 3_600_000).toISOString()],
      [stale, new Date(Date.now() - 1_000).toISOString()],
    ] as const) {
      await server.store.apiKeys.create({
        id: created.id,
        name: created.id,
        role: "viewer",
        agents: null,
        canDecide: false,
        rateLimit: null,
        expiresAt,
        createdAt: new Date().toISOString(),
        lastUsedAt: null,
        revokedAt: null,
        hash: await hashSecret(created.secret),
      });
    }
    expect((await server.request("/api/agents", { headers: bearer(fresh.key) })).status).toBe(200);
    expect((await server.request("/api/agents", { headers: bearer(stale.key) })).status).toBe(401);
    await expect(open(server.url, stale.key)).rejects.toThrow(/unauthorized/);
  });
});

describe("scope", () => {
  it("filters lists to the key's agents and hides the others", async () => {
    server = await start("tok");
    await server.store.createAgent({ spec: spec("alpha") });
    await server.store.createAgent({ spec: spec("beta") });
    const key = (
      await server.request("/api/keys", {
        method: "POST",
        headers: bearer("tok"),
        json: { name: "alpha only", role: "editor", agents: ["alpha"] },
      })
    ).body.key as string;
    const agents = await server.request("/api/agents", { headers: bearer(key) });
    expect(agents.body.agents.map((agent: { id: string }) => agent.id)).toEqual(["alpha"]);
    const models = await server.request("/v1/models", { headers: bearer(key) });
    expect(models.body.data.map((model: { id: string }) => model.id)).toEqual(["alpha"]);
    expect((await server.request("/api/agents/beta", { headers: bearer(key) })).status).toBe(404);
    // A scoped admin-less key cannot mint a key that reaches further: it is not an admin at all.
    expect(
      (
        await server.request("/api/keys", {
          method: "POST",
          headers: bearer(key),
          json: { name: "x", role: "admin" },
        })
      ).status,
    ).toBe(403);
  });
});

describe("on disk", () => {
  it("keeps hashes only: no plaintext key or secret anywhere in the SQLite files", async () => {
    server = await start("tok");
    const keys: string[] = [];
    for (const role of ["viewer", "runner", "editor", "admin"]) {
      const created = await server.request("/api/keys", {
        method: "POST",
        headers: bearer("tok"),
        json: { name: `${role} key`, role },
      });
      keys.push(created.body.key);
      await server.request("/api/agents", { headers: bearer(created.body.key) });
    }
    const rows = (await server.store.apiKeys.list()).map((key) => key.hash);
    expect(rows.every((hash) => hash.startsWith("scrypt$16384$8$1$"))).toBe(true);
    const dataDir = server.dataDir;
    await server.close();
    server = undefined;
    const bytes = readdirSync(dataDir)
      .filter((file) => file.startsWith("waddle.db"))
      .map((file) => readFileSync(path.join(dataDir, file)));
    expect(bytes.length).toBeGreaterThan(0);
    const all = Buffer.concat(bytes);
    for (const key of keys) {
      const secret = key.slice(17);
      expect(all.includes(Buffer.from(secret)), "secret on disk").toBe(false);
      expect(all.includes(Buffer.from(key)), "key on disk").toBe(false);
    }
    expect(all.includes(Buffer.from(rows[0]!))).toBe(true);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
