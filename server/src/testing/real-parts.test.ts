import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "./real-parts.js";
import { startTestPostgres, type TestPostgres } from "./start-postgres.js";
import { startTestRedis, type TestRedis } from "./start-redis.js";

const skip = getMissingPartsReason(["postgres", "redis"]);

function ping(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (data) => {
      resolve(data.toString().trim());
      socket.end();
    });
    socket.once("error", reject);
  });
}

describe.skipIf(skip)("the test's own PostgreSQL and Redis", () => {
  let postgres: TestPostgres;
  let redis: TestRedis;
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startTestPostgres(), startTestRedis()]);
  });
  afterAll(async () => {
    await Promise.all([postgres?.destroy(), redis?.destroy()]);
  });

  it("starts a cluster on a free port that survives a restart, and a redis-server", async () => {
    const url = await postgres.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("CREATE TABLE kept (n int)");
    await client.query("INSERT INTO kept VALUES (7)");
    await client.end();
    await postgres.stop();
    await postgres.start();
    const again = new pg.Client({ connectionString: url });
    await again.connect();
    expect((await again.query("SELECT n FROM kept")).rows).toEqual([{ n: 7 }]);
    await again.end();
    expect(await ping(redis.port)).toBe("+PONG");
    await redis.stop();
    await redis.start();
    expect(await ping(redis.port)).toBe("+PONG");
  });
});
