// @waddle/server/testing: what tests, the e2e suite and benchmarks outside the package use.
export { getServerCommand, spawnServer } from "./spawn-server.js";
export type { ServerCode, SpawnedServer, SpawnServerOptions } from "./spawn-server.js";
export { startTestPostgres } from "./start-postgres.js";
export type { TestPostgres } from "./start-postgres.js";
export { startTestRedis } from "./start-redis.js";
export type { TestRedis } from "./start-redis.js";
export { findPostgresBin, findRedisServer } from "./real-parts.js";
export { ensureExportRuntime } from "./ensure-export-runtime.js";
