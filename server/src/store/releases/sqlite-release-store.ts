import type Database from "better-sqlite3";
import { StoreError } from "../waddle-store.js";
import { writeTransaction } from "../sqlite-write-transaction.js";
import { getChannelOf, type ReleaseStore, type StoredChannel, type StoredRelease } from "./release-store.js";
import { RELEASE_COLUMNS, toReleaseValues, toStoredRelease, type ReleaseRow } from "./release-rows.js";

const CHANNEL_ROWS = `SELECT r.* FROM agent_channels c JOIN agent_releases r ON r.id = c.release_id`;

/** Releases and channels in the SQLite store's `agent_releases` and `agent_channels` (migration 16). */
export class SqliteReleaseStore implements ReleaseStore {
  /** Prepared once per SQL text: every serving request reads a channel, and preparing costs more than it. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  async create(
    release: StoredRelease,
    options: { expectedReleaseId?: string | null } = {},
  ): Promise<StoredRelease> {
    const moved = writeTransaction(this.db, () => {
      const current = this.sql("SELECT release_id FROM agent_channels WHERE agent_id = ? AND name = ?").get(
        release.agentId,
        release.channel,
      ) as { release_id: string } | undefined;
      const expected = options.expectedReleaseId;
      if (expected !== undefined && expected !== (current?.release_id ?? null)) return true;
      this.sql(
        `INSERT INTO agent_releases (${RELEASE_COLUMNS}) VALUES (${RELEASE_COLUMNS.replace(/\w+/g, "?")})`,
      ).run(...toReleaseValues(release));
      this.sql(
        `INSERT INTO agent_channels (agent_id, name, release_id) VALUES (?, ?, ?)
           ON CONFLICT (agent_id, name) DO UPDATE SET release_id = excluded.release_id`,
      ).run(release.agentId, release.channel, release.id);
      return false;
    })();
    if (moved) {
      const channel = await this.getChannel(release.agentId, release.channel);
      throw new StoreError("conflict", `Channel "${release.channel}" moved meanwhile.`, {
        channel: channel ?? null,
      });
    }
    return structuredClone(release);
  }

  async listChannels(agentId: string): Promise<StoredChannel[]> {
    const rows = this.sql(`${CHANNEL_ROWS} WHERE c.agent_id = ? ORDER BY c.name`).all(
      agentId,
    ) as ReleaseRow[];
    return rows.map((row) => getChannelOf(toStoredRelease(row)));
  }

  async getChannel(agentId: string, name: string): Promise<StoredChannel | undefined> {
    const row = this.sql(`${CHANNEL_ROWS} WHERE c.agent_id = ? AND c.name = ?`).get(agentId, name) as
      ReleaseRow | undefined;
    return row && getChannelOf(toStoredRelease(row));
  }

  async list(agentId: string, options: { channel?: string; limit?: number } = {}): Promise<StoredRelease[]> {
    const rows = this.sql(
      `SELECT * FROM agent_releases WHERE agent_id = ? AND (? IS NULL OR channel = ?)
         ORDER BY rowid DESC LIMIT ?`,
    ).all(agentId, options.channel ?? null, options.channel ?? null, options.limit ?? -1) as ReleaseRow[];
    return rows.map(toStoredRelease);
  }

  async get(id: string): Promise<StoredRelease | undefined> {
    const row = this.sql("SELECT * FROM agent_releases WHERE id = ?").get(id) as ReleaseRow | undefined;
    return row && toStoredRelease(row);
  }

  async deleteAgent(agentId: string): Promise<void> {
    writeTransaction(this.db, () => {
      this.sql("DELETE FROM agent_channels WHERE agent_id = ?").run(agentId);
      this.sql("DELETE FROM agent_releases WHERE agent_id = ?").run(agentId);
    })();
  }
}
