import { describe, expect, it } from "vitest";
import { ConfigError, readServerConfig } from "../config.js";

const pg = "postgres://waddle:secret@db:5432/waddle";
const redis = "redis://cache:6379";

describe("scale-out settings", () => {
  it("leave SQLite and one process by default", () => {
    const config = readServerConfig({}, "/repo");
    expect(config).toMatchObject({ role: "all", runLeaseMs: 10_000 });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
  });

  it("read PostgreSQL alone, and queue mode with a role and a lease", () => {
    expect(readServerConfig({ WADDLE_DATABASE_URL: pg }).databaseUrl).toBe(pg);
    const config = readServerConfig({
      WADDLE_DATABASE_URL: pg,
      WADDLE_REDIS_URL: redis,
      WADDLE_ROLE: "worker",
      WADDLE_RUN_LEASE_MS: "3000",
    });
    expect(config).toMatchObject({ databaseUrl: pg, redisUrl: redis, role: "worker", runLeaseMs: 3_000 });
  });

  it.each([
    [{ WADDLE_DATABASE_URL: "mysql://db/waddle" }, /WADDLE_DATABASE_URL must be a postgres/],
    [{ WADDLE_DATABASE_URL: pg, WADDLE_REDIS_URL: "http://cache" }, /WADDLE_REDIS_URL must be a redis/],
    [{ WADDLE_REDIS_URL: redis }, /needs WADDLE_DATABASE_URL too/],
    [{ WADDLE_ROLE: "api" }, /WADDLE_ROLE=api needs queue mode/],
    [{ WADDLE_DATABASE_URL: pg, WADDLE_REDIS_URL: redis, WADDLE_ROLE: "boss" }, /all, api or worker/],
    [{ WADDLE_RUN_LEASE_MS: "10" }, /WADDLE_RUN_LEASE_MS/],
  ])("refuse %o", (env, message) => {
    expect(() => readServerConfig(env)).toThrow(ConfigError);
    expect(() => readServerConfig(env)).toThrow(message);
  });
});
