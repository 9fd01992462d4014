import type { PartsHealth } from "./http/meta-routes.js";
import type { QueueMode } from "./scale/queue-mode.js";
import type { WaddleStore } from "./store/waddle-store.js";

/** `/api/health`'s parts: the database when it is a server (PostgreSQL), Redis in queue mode. */
export function createPartsHealth(store: WaddleStore, queueMode: QueueMode | undefined): PartsHealth {
  return async () => {
    const [database, redis] = await Promise.all([
      store.ping
        ? store.ping().then(
            () => "up" as const,
            () => "down" as const,
          )
        : Promise.resolve("up" as const),
      queueMode?.getRedisHealth(),
    ]);
    return { database, ...(redis ? { redis } : {}) };
  };
}
