// @waddle/server/testing: what tests, the e2e suite and benchmarks outside the package use.
export { getServerCommand, spawnServer } from "./spawn-server.js";
export type { ServerCode, SpawnedServer, SpawnServerOptions } from "./spawn-server.js";
