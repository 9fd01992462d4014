import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestCluster, type TestCluster } from "../testing/start-test-cluster.js";

// PostgreSQL, redis-server and two Waddle processes: run with WADDLE_TEST_SCALE_OUT=only (vitest.config.ts).
const TOKEN = "scale-out-access-token-0123456789";
let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster({ WADDLE_TOKEN: TOKEN });
  // One after the other: the first applies the migrations.
  await cluster.start("all");
  await cluster.start("all");
}, 120_000);
afterAll(async () => cluster?.destroy(), 60_000);

const call = (url: string, path: string, init: { method?: string; key: string; json?: unknown }) =>
  fetch(`${url}${path}`, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: {
      authorization: `Bearer ${init.key}`,
      ...(init.json === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });

function open(url: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(url, {
      transports: ["websocket"],
      forceNew: true,
      reconnection: false,
      auth: { token },
    });
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
}

describe("a revoked key in queue mode", () => {
  it("loses its sockets and its requests on every instance", async () => {
    const [first, second] = cluster.instances as [TestCluster["instances"][0], TestCluster["instances"][0]];
    const created = await call(first.url, "/api/keys", {
      key: TOKEN,
      json: { name: "doomed", role: "runner" },
    });
    expect(created.status).toBe(201);
    const { id, key } = (await created.json()) as { id: string; key: string };
    expect((await call(second.url, "/api/agents", { key })).status).toBe(200);
    const sockets = await Promise.all([open(first.url, key), open(second.url, key)]);
    const cut = sockets.map(
      (socket) => new Promise<string>((resolve) => socket.once("disconnect", (reason) => resolve(reason))),
    );
    expect((await call(first.url, `/api/keys/${id}`, { method: "DELETE", key: TOKEN })).status).toBe(204);
    expect(await Promise.all(cut)).toEqual(["io server disconnect", "io server disconnect"]);
    expect((await call(second.url, "/api/agents", { key })).status).toBe(401);
    expect((await call(first.url, "/api/agents", { key })).status).toBe(401);
    await expect(open(second.url, key)).rejects.toThrow(/unauthorized/);
  }, 60_000);
});
