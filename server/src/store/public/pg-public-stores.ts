import { isUniqueViolation } from "../pg-errors.js";
import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import { StoreError } from "../waddle-store.js";
import type { PublicChatStore, PublicChatStores, StoredPublicChat } from "./public-chat-store.js";
import type { RatingCount, RunRatingStore, StoredRating } from "./run-rating-store.js";
import type { VisitorSession, VisitorSessionStore } from "./visitor-session-store.js";
import {
  PUBLIC_CHAT_COLUMNS,
  RATING_COLUMNS,
  toPublicChatValues,
  toRatingCount,
  toRatingValues,
  toStoredPublicChat,
  toStoredRating,
  toVisitorSession,
  toVisitorSessionValues,
  VISITOR_SESSION_COLUMNS,
} from "./public-chat-rows.js";

const marks = (count: number) => Array.from({ length: count }, (_, index) => `$${index + 1}`).join(", ");

class PgPublicChatStore implements PublicChatStore {
  constructor(private readonly query: PgQuery) {}

  get(agentId: string): Promise<StoredPublicChat | undefined> {
    return this.find("agent_id", agentId);
  }

  getByPublicId(publicId: string): Promise<StoredPublicChat | undefined> {
    return this.find("public_id", publicId);
  }

  getByKeyId(keyId: string): Promise<StoredPublicChat | undefined> {
    return this.find("key_id", keyId);
  }

  async put(chat: StoredPublicChat): Promise<StoredPublicChat> {
    const { rows } = await this.query(
      `INSERT INTO public_chats (${PUBLIC_CHAT_COLUMNS}) VALUES (${marks(9)})
       ON CONFLICT (agent_id) DO UPDATE SET public_id = EXCLUDED.public_id, key_id = EXCLUDED.key_id,
         publishable_key = EXCLUDED.publishable_key, visitor_secret = EXCLUDED.visitor_secret,
         settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
       RETURNING *`,
      toPublicChatValues(chat),
      "write",
    );
    return toStoredPublicChat(rows[0]);
  }

  async delete(agentId: string): Promise<boolean> {
    const result = await this.query("DELETE FROM public_chats WHERE agent_id = $1", [agentId], "write");
    return (result.rowCount ?? 0) > 0;
  }

  private async find(column: "agent_id" | "public_id" | "key_id", value: string) {
    const { rows } = await this.query(`SELECT * FROM public_chats WHERE ${column} = $1`, [value]);
    return rows[0] === undefined ? undefined : toStoredPublicChat(rows[0]);
  }
}

class PgVisitorSessionStore implements VisitorSessionStore {
  constructor(private readonly query: PgQuery) {}

  async add(session: VisitorSession): Promise<void> {
    try {
      await this.query(
        `INSERT INTO public_chat_sessions (${VISITOR_SESSION_COLUMNS}) VALUES (${marks(5)})`,
        toVisitorSessionValues(session),
        "write",
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new StoreError("conflict", `Session "${session.sessionId}" already has a visitor.`);
    }
  }

  async get(sessionId: string): Promise<VisitorSession | undefined> {
    const { rows } = await this.query("SELECT * FROM public_chat_sessions WHERE session_id = $1", [
      sessionId,
    ]);
    return rows[0] === undefined ? undefined : toVisitorSession(rows[0]);
  }

  async list(options: { publicId: string; visitorId: string; limit?: number }): Promise<VisitorSession[]> {
    const { rows } = await this.query(
      `SELECT * FROM public_chat_sessions WHERE public_id = $1 AND visitor_id = $2
       ORDER BY position DESC LIMIT $3`,
      [options.publicId, options.visitorId, options.limit ?? null],
    );
    return rows.map(toVisitorSession);
  }
}

class PgRunRatingStore implements RunRatingStore {
  constructor(private readonly query: PgQuery) {}

  async put(rating: StoredRating): Promise<StoredRating> {
    const { rows } = await this.query(
      `INSERT INTO run_ratings (${RATING_COLUMNS}) VALUES (${marks(6)})
       ON CONFLICT (run_id) DO UPDATE SET rating = EXCLUDED.rating, comment = EXCLUDED.comment,
         created_at = EXCLUDED.created_at
       RETURNING *`,
      toRatingValues(rating),
      "write",
    );
    return toStoredRating(rows[0]);
  }

  async get(runId: string): Promise<StoredRating | undefined> {
    const { rows } = await this.query("SELECT * FROM run_ratings WHERE run_id = $1", [runId]);
    return rows[0] === undefined ? undefined : toStoredRating(rows[0]);
  }

  async getMany(runIds: readonly string[]): Promise<Map<string, StoredRating>> {
    const found = new Map<string, StoredRating>();
    if (runIds.length === 0) return found;
    const { rows } = await this.query("SELECT * FROM run_ratings WHERE run_id = ANY($1)", [[...runIds]]);
    for (const rating of rows.map(toStoredRating)) found.set(rating.runId, rating);
    return found;
  }

  async countByAgent(): Promise<RatingCount[]> {
    const { rows } = await this.query(
      "SELECT agent_id, rating, COUNT(*) AS count FROM run_ratings GROUP BY agent_id, rating",
    );
    return rows.map(toRatingCount);
  }
}

/** The public side of the PostgreSQL store (migration 16, as SQLite's 19). */
export class PgPublicChatStores implements PublicChatStores {
  readonly chats: PgPublicChatStore;
  readonly visitors: PgVisitorSessionStore;
  readonly ratings: PgRunRatingStore;

  constructor(query: PgQuery) {
    this.chats = new PgPublicChatStore(query);
    this.visitors = new PgVisitorSessionStore(query);
    this.ratings = new PgRunRatingStore(query);
  }
}
