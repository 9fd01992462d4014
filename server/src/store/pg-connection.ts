import pg from "pg";
import { isPgConnectionError } from "./pg-errors.js";
import { StoreError } from "./waddle-store.js";

export interface PgStoreOptions {
  /** `postgres://user:password@host:port/database` (`WADDLE_DATABASE_URL`). */
  connectionString: string;
  /** Pooled connections (default 10). */
  maxConnections?: number;
  /**
   * How long a run's write (events, checkpoints, run changes, paused states) waits for PostgreSQL to come
   * back when the connection breaks (a restart) before it fails (default 5 min): runs go on once the
   * database is back, and lose nothing.
   */
  retryForMs?: number;
  /** The same for every other operation, which a request waits for (default 5 s). */
  readRetryForMs?: number;
  /**
   * A session that holds a transaction open but idle this long is ended by PostgreSQL, releasing its row
   * locks (default 5 s): a worker frozen mid-transaction (SIGSTOP, a stalled VM) must not hold the run's
   * row, or no other worker could claim it. Its own commit then fails, and the retry is fenced.
   */
  idleInTransactionMs?: number;
  /** Told when PostgreSQL is unreachable and when it is back. */
  onAvailability?: (available: boolean, error?: Error) => void;
}

/** A query in a transaction, on its one connection. */
export type Query = (text: string, params?: unknown[]) => Promise<pg.QueryResult>;
/** A run's writes wait long for a restarted database; what a request waits for does not. */
export type OperationKind = "read" | "write";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The PostgreSQL store's connections: a pool, queries and transactions retried on a broken connection
 * (with backoff, for as long as their kind allows), and whether the database is reachable.
 */
export class PgConnection {
  readonly pool: pg.Pool;
  private closed = false;
  private available = true;

  constructor(private readonly options: PgStoreOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      idle_in_transaction_session_timeout: options.idleInTransactionMs ?? 5_000,
    });
    // An idle client whose server went away: the pool drops it; the next query connects again.
    this.pool.on("error", () => undefined);
  }

  /** Resolves when PostgreSQL answers `SELECT 1` within `timeoutMs`; for `/api/health`. */
  async ping(timeoutMs = 2_000): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query({ text: "SELECT 1", query_timeout: timeoutMs } as pg.QueryConfig);
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  query(text: string, params?: unknown[], kind: OperationKind = "read"): Promise<pg.QueryResult> {
    return this.retry(kind, () => this.pool.query(text, params));
  }

  /** Runs `body` in a transaction on one pooled connection; the whole of it is retried on a broken one. */
  transaction<T>(kind: OperationKind, body: (query: Query, attempt: number) => Promise<T>): Promise<T> {
    return this.retry(kind, async (attempt) => {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      // Between two queries of the transaction nothing else listens: a connection the server ends then
      // (a process paused past idle_in_transaction_session_timeout) would crash the process. Note it
      // instead; the next query fails with a connection error and the whole transaction is retried.
      const onError = (error: Error) => {
        broken = error;
      };
      client.on("error", onError);
      try {
        await client.query("BEGIN");
        const result = await body((text, params) => client.query(text, params), attempt);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        if (isPgConnectionError(error)) broken = error as Error;
        else await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.off("error", onError);
        client.release(broken);
      }
    });
  }

  /** Retries an operation whose connection broke, with backoff, until its kind's limit has passed. */
  async retry<T>(kind: OperationKind, operation: (attempt: number) => Promise<T>): Promise<T> {
    const started = Date.now();
    const limit =
      kind === "write" ? (this.options.retryForMs ?? 300_000) : (this.options.readRetryForMs ?? 5_000);
    for (let attempt = 0; ; attempt += 1) {
      if (this.closed) throw new StoreError("closed", "The store is closed.");
      try {
        const result = await operation(attempt);
        this.setAvailable(true);
        return result;
      } catch (error) {
        if (!isPgConnectionError(error) || this.closed) throw error;
        this.setAvailable(false, error as Error);
        if (Date.now() - started >= limit) throw error;
        await sleep(Math.min(1_000, 50 * 2 ** attempt));
      }
    }
  }

  private setAvailable(available: boolean, error?: Error): void {
    if (available === this.available) return;
    this.available = available;
    this.options.onAvailability?.(available, error);
  }
}
