import { StoreError } from "../waddle-store.js";
import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import { ChannelCache } from "./channel-cache.js";
import { getChannelOf, type ReleaseStore, type StoredChannel, type StoredRelease } from "./release-store.js";
import { RELEASE_COLUMNS, toReleaseValues, toStoredRelease, type ReleaseRow } from "./release-rows.js";

const CHANNEL_ROWS = `SELECT r.* FROM agent_channels c JOIN agent_releases r ON r.id = c.release_id`;

/**
 * Releases and channels in the PostgreSQL store (migration 13). A release is one statement: the channel's
 * conditional upsert and the release's insert, which happens only when the upsert did.
 */
export class PgReleaseStore implements ReleaseStore {
  /**
   * @param served what serving reads (`maxAgeMs`) may answer from: a channel read costs a round trip to
   * PostgreSQL, more than a serving request should pay each time (docs/benchmarks.md, 14).
   */
  constructor(
    private readonly query: PgQuery,
    private readonly served = new ChannelCache(),
  ) {}

  async create(
    release: StoredRelease,
    options: { expectedReleaseId?: string | null } = {},
  ): Promise<StoredRelease> {
    const expected = options.expectedReleaseId;
    const values = toReleaseValues(release);
    const onConflict =
      expected === undefined
        ? "DO UPDATE SET release_id = EXCLUDED.release_id"
        : expected === null
          ? "DO NOTHING"
          : `DO UPDATE SET release_id = EXCLUDED.release_id WHERE agent_channels.release_id = $${values.length + 1}`;
    // Typed: a parameter of INSERT … SELECT is text unless cast (version and previous_version are integers).
    const placeholders = values
      .map((_, index) => `$${index + 1}${index === 3 || index === 4 ? "::integer" : "::text"}`)
      .join(", ");
    const { rows } = await this.query(
      `WITH moved AS (
         INSERT INTO agent_channels (agent_id, name, release_id) VALUES ($2, $3, $1)
         ON CONFLICT (agent_id, name) ${onConflict}
         RETURNING release_id
       )
       INSERT INTO agent_releases (${RELEASE_COLUMNS})
       SELECT ${placeholders} WHERE EXISTS (SELECT 1 FROM moved) RETURNING id`,
      typeof expected === "string" ? [...values, expected] : values,
      "write",
    );
    // Moved (or, on a conflict, moved by another instance): serving reads here see it from now on.
    this.served.forget(release.agentId);
    if (rows.length === 0) {
      const channel = await this.getChannel(release.agentId, release.channel);
      throw new StoreError("conflict", `Channel "${release.channel}" moved meanwhile.`, {
        channel: channel ?? null,
      });
    }
    return structuredClone(release);
  }

  async listChannels(agentId: string): Promise<StoredChannel[]> {
    const { rows } = await this.query(`${CHANNEL_ROWS} WHERE c.agent_id = $1 ORDER BY c.name`, [agentId]);
    return (rows as ReleaseRow[]).map((row) => getChannelOf(toStoredRelease(row)));
  }

  async getChannel(
    agentId: string,
    name: string,
    options: { maxAgeMs?: number } = {},
  ): Promise<StoredChannel | undefined> {
    if (options.maxAgeMs !== undefined) {
      const kept = this.served.get(agentId, name, options.maxAgeMs);
      // Read again on the next turn of the event loop, so that not even the query's start is this caller's
      // (a failure leaves the entry to age out, and the next call reads it).
      if (kept?.refresh) setImmediate(() => void this.getChannel(agentId, name).catch(() => undefined));
      if (kept) return kept.channel;
    }
    const read = this.served.begin();
    const { rows } = await this.query(`${CHANNEL_ROWS} WHERE c.agent_id = $1 AND c.name = $2`, [
      agentId,
      name,
    ]);
    const channel = rows[0] ? getChannelOf(toStoredRelease(rows[0] as ReleaseRow)) : undefined;
    this.served.keep({ agentId, name, channel, read });
    return channel;
  }

  async list(agentId: string, options: { channel?: string; limit?: number } = {}): Promise<StoredRelease[]> {
    const { rows } = await this.query(
      `SELECT * FROM agent_releases WHERE agent_id = $1 AND ($2::text IS NULL OR channel = $2)
       ORDER BY position DESC LIMIT $3`,
      [agentId, options.channel ?? null, options.limit ?? null],
    );
    return (rows as ReleaseRow[]).map(toStoredRelease);
  }

  async get(id: string): Promise<StoredRelease | undefined> {
    const { rows } = await this.query("SELECT * FROM agent_releases WHERE id = $1", [id]);
    return rows[0] ? toStoredRelease(rows[0] as ReleaseRow) : undefined;
  }

  async deleteAgent(agentId: string): Promise<void> {
    await this.query(
      `WITH gone AS (DELETE FROM agent_channels WHERE agent_id = $1)
       DELETE FROM agent_releases WHERE agent_id = $1`,
      [agentId],
      "write",
    );
    this.served.forget(agentId);
  }
}
