import type Database from "better-sqlite3";
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

const marks = (count: number) => Array.from({ length: count }, () => "?").join(", ");

class SqlitePublicChatStore implements PublicChatStore {
  constructor(private readonly db: Database.Database) {}

  async get(agentId: string): Promise<StoredPublicChat | undefined> {
    return this.find("agent_id", agentId);
  }

  async getByPublicId(publicId: string): Promise<StoredPublicChat | undefined> {
    return this.find("public_id", publicId);
  }

  async getByKeyId(keyId: string): Promise<StoredPublicChat | undefined> {
    return this.find("key_id", keyId);
  }

  async put(chat: StoredPublicChat): Promise<StoredPublicChat> {
    this.db
      .prepare(
        `INSERT INTO public_chats (${PUBLIC_CHAT_COLUMNS}) VALUES (${marks(9)})
         ON CONFLICT (agent_id) DO UPDATE SET public_id = excluded.public_id, key_id = excluded.key_id,
           publishable_key = excluded.publishable_key, visitor_secret = excluded.visitor_secret,
           settings = excluded.settings, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      )
      .run(...toPublicChatValues(chat));
    return (await this.get(chat.agentId))!;
  }

  async delete(agentId: string): Promise<boolean> {
    return this.db.prepare("DELETE FROM public_chats WHERE agent_id = ?").run(agentId).changes > 0;
  }

  private find(column: "agent_id" | "public_id" | "key_id", value: string): StoredPublicChat | undefined {
    const row: unknown = this.db.prepare(`SELECT * FROM public_chats WHERE ${column} = ?`).get(value);
    return row === undefined ? undefined : toStoredPublicChat(row);
  }
}

class SqliteVisitorSessionStore implements VisitorSessionStore {
  constructor(private readonly db: Database.Database) {}

  async add(session: VisitorSession): Promise<void> {
    try {
      this.db
        .prepare(`INSERT INTO public_chat_sessions (${VISITOR_SESSION_COLUMNS}) VALUES (${marks(5)})`)
        .run(...toVisitorSessionValues(session));
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw error;
      throw new StoreError("conflict", `Session "${session.sessionId}" already has a visitor.`);
    }
  }

  async get(sessionId: string): Promise<VisitorSession | undefined> {
    const row: unknown = this.db
      .prepare("SELECT * FROM public_chat_sessions WHERE session_id = ?")
      .get(sessionId);
    return row === undefined ? undefined : toVisitorSession(row);
  }

  async list(options: { publicId: string; visitorId: string; limit?: number }): Promise<VisitorSession[]> {
    const rows: unknown[] = this.db
      .prepare(
        `SELECT * FROM public_chat_sessions WHERE public_id = ? AND visitor_id = ? ORDER BY rowid DESC LIMIT ?`,
      )
      .all(options.publicId, options.visitorId, options.limit ?? -1);
    return rows.map(toVisitorSession);
  }
}

class SqliteRunRatingStore implements RunRatingStore {
  constructor(private readonly db: Database.Database) {}

  async put(rating: StoredRating): Promise<StoredRating> {
    this.db
      .prepare(
        `INSERT INTO run_ratings (${RATING_COLUMNS}) VALUES (${marks(6)})
         ON CONFLICT (run_id) DO UPDATE SET rating = excluded.rating, comment = excluded.comment,
           created_at = excluded.created_at`,
      )
      .run(...toRatingValues(rating));
    return (await this.get(rating.runId))!;
  }

  async get(runId: string): Promise<StoredRating | undefined> {
    const row: unknown = this.db.prepare("SELECT * FROM run_ratings WHERE run_id = ?").get(runId);
    return row === undefined ? undefined : toStoredRating(row);
  }

  async getMany(runIds: readonly string[]): Promise<Map<string, StoredRating>> {
    const found = new Map<string, StoredRating>();
    // SQLite takes at most 32766 parameters a statement: a page of runs is far below.
    for (let start = 0; start < runIds.length; start += 500) {
      const page = runIds.slice(start, start + 500);
      const rows: unknown[] = this.db
        .prepare(`SELECT * FROM run_ratings WHERE run_id IN (${marks(page.length)})`)
        .all(...page);
      for (const rating of rows.map(toStoredRating)) found.set(rating.runId, rating);
    }
    return found;
  }

  async countByAgent(): Promise<RatingCount[]> {
    const rows: unknown[] = this.db
      .prepare("SELECT agent_id, rating, COUNT(*) AS count FROM run_ratings GROUP BY agent_id, rating")
      .all();
    return rows.map(toRatingCount);
  }
}

/** The public side of the SQLite store: `public_chats`, `public_chat_sessions`, `run_ratings` (migration 19). */
export class SqlitePublicChatStores implements PublicChatStores {
  readonly chats: SqlitePublicChatStore;
  readonly visitors: SqliteVisitorSessionStore;
  readonly ratings: SqliteRunRatingStore;

  constructor(db: Database.Database) {
    this.chats = new SqlitePublicChatStore(db);
    this.visitors = new SqliteVisitorSessionStore(db);
    this.ratings = new SqliteRunRatingStore(db);
  }
}
