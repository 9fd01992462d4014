import path from "node:path";
import type { Logger } from "../shared/logger.js";
import { lockDataDir } from "./data-dir-lock.js";
import { PgStore } from "./pg-store.js";
import { SqliteStore } from "./sqlite-store.js";
import type { WaddleStore } from "./waddle-store.js";

export interface OpenedStore {
  store: WaddleStore;
  /** Releases the data folder's lock; nothing to release for a given store or PostgreSQL. */
  unlock(): void;
}

/**
 * A server's database: the given store, PostgreSQL (`databaseUrl`), or SQLite in `dataDir/waddle.db`, whose
 * folder is locked first: a second server on it would mark this one's running runs interrupted.
 */
export async function openServerStore(options: {
  store?: WaddleStore;
  databaseUrl?: string;
  dataDir: string;
  logger: Logger;
}): Promise<OpenedStore> {
  const { logger } = options;
  const unlock = options.store || options.databaseUrl ? () => undefined : lockDataDir(options.dataDir);
  try {
    const store =
      options.store ??
      (options.databaseUrl
        ? await openPgStore(options.databaseUrl, logger)
        : openSqliteStore(options.dataDir, logger));
    return { store, unlock };
  } catch (error) {
    unlock();
    throw error;
  }
}

function openPgStore(connectionString: string, logger: Logger): Promise<PgStore> {
  return PgStore.open({
    connectionString,
    onAvailability: (available, error) =>
      available
        ? logger.info("PostgreSQL is back")
        : logger.warn("PostgreSQL is unreachable: writes wait for it", { error: error?.message }),
  });
}

function openSqliteStore(dataDir: string, logger: Logger): SqliteStore {
  return new SqliteStore(path.join(dataDir, "waddle.db"), {
    // Checkpoints off the event path: a commit that ran one stalled live events for 4–8 ms.
    backgroundCheckpoints: true,
    onCheckpointFailure: (error) =>
      logger.warn("WAL checkpoint worker stopped; SQLite checkpoints in commits again", {
        error: error.message,
      }),
  });
}
