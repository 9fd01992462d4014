import { Redis } from "ioredis";
import type { Logger } from "../shared/logger.js";

/**
 * The Redis connections of one instance (queue mode): BullMQ's queue and worker, the socket.io adapter's
 * publisher and subscriber. Each reconnects on its own when Redis restarts (ioredis retries forever, at
 * most every 2 s); commands issued meanwhile wait, and callers bound that wait themselves.
 */
export class RedisConnections {
  private readonly all: Redis[] = [];
  private warned = false;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  /** A new connection; `blocking` for BullMQ workers (no per-command retry limit, as BullMQ requires). */
  create(name: string, options: { blocking?: boolean } = {}): Redis {
    const connection = new Redis(this.url, {
      connectionName: `waddle-${name}`,
      maxRetriesPerRequest: options.blocking ? null : 3,
      retryStrategy: (times) => Math.min(2_000, 50 * 2 ** Math.min(times, 6)),
      enableReadyCheck: true,
    });
    connection.on("error", (error: Error) => {
      // One warning per outage, not one per retry.
      if (this.warned) return;
      this.warned = true;
      this.logger.warn("Redis is unreachable: jobs and live events wait for it", { error: error.message });
    });
    connection.on("ready", () => {
      if (!this.warned) return;
      this.warned = false;
      this.logger.info("Redis is back");
    });
    this.all.push(connection);
    return connection;
  }

  /** PING on a connection of its own within `timeoutMs`; for `/api/health`. */
  async ping(timeoutMs = 1_000): Promise<void> {
    const connection = this.all[0];
    if (!connection || connection.status !== "ready")
      throw new Error(`Redis is ${connection?.status ?? "not connected"}.`);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        connection.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error("Redis did not answer PING in time.")), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((connection) => connection.quit().catch(() => connection.disconnect())));
  }
}
