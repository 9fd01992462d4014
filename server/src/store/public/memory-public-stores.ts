import { StoreError } from "../waddle-store.js";
import type { PublicChatStore, PublicChatStores, StoredPublicChat } from "./public-chat-store.js";
import type { RatingCount, RunRatingStore, StoredRating } from "./run-rating-store.js";
import type { VisitorSession, VisitorSessionStore } from "./visitor-session-store.js";

class MemoryPublicChatStore implements PublicChatStore {
  private readonly chats = new Map<string, StoredPublicChat>();

  async get(agentId: string): Promise<StoredPublicChat | undefined> {
    return structuredClone(this.chats.get(agentId));
  }

  async getByPublicId(publicId: string): Promise<StoredPublicChat | undefined> {
    return structuredClone([...this.chats.values()].find((chat) => chat.publicId === publicId));
  }

  async getByKeyId(keyId: string): Promise<StoredPublicChat | undefined> {
    return structuredClone([...this.chats.values()].find((chat) => chat.keyId === keyId));
  }

  async put(chat: StoredPublicChat): Promise<StoredPublicChat> {
    const createdAt = this.chats.get(chat.agentId)?.createdAt ?? chat.createdAt;
    this.chats.set(chat.agentId, structuredClone({ ...chat, createdAt }));
    return structuredClone({ ...chat, createdAt });
  }

  async delete(agentId: string): Promise<boolean> {
    return this.chats.delete(agentId);
  }
}

class MemoryVisitorSessionStore implements VisitorSessionStore {
  /** Oldest first. */
  private readonly sessions: VisitorSession[] = [];

  async add(session: VisitorSession): Promise<void> {
    if (this.sessions.some((known) => known.sessionId === session.sessionId)) {
      throw new StoreError("conflict", `Session "${session.sessionId}" already has a visitor.`);
    }
    this.sessions.push(structuredClone(session));
  }

  async get(sessionId: string): Promise<VisitorSession | undefined> {
    return structuredClone(this.sessions.find((session) => session.sessionId === sessionId));
  }

  async list(options: { publicId: string; visitorId: string; limit?: number }): Promise<VisitorSession[]> {
    const own = this.sessions
      .filter((session) => session.publicId === options.publicId && session.visitorId === options.visitorId)
      .reverse();
    return structuredClone(options.limit === undefined ? own : own.slice(0, options.limit));
  }
}

/** Ratings in a map; `peek` lets the memory store filter its runs by rating. */
export class MemoryRunRatingStore implements RunRatingStore {
  private readonly ratings = new Map<string, StoredRating>();

  async put(rating: StoredRating): Promise<StoredRating> {
    this.ratings.set(rating.runId, structuredClone(rating));
    return structuredClone(rating);
  }

  async get(runId: string): Promise<StoredRating | undefined> {
    return structuredClone(this.ratings.get(runId));
  }

  async getMany(runIds: readonly string[]): Promise<Map<string, StoredRating>> {
    const found = new Map<string, StoredRating>();
    for (const runId of runIds) {
      const rating = this.ratings.get(runId);
      if (rating) found.set(runId, structuredClone(rating));
    }
    return found;
  }

  async countByAgent(): Promise<RatingCount[]> {
    const counts = new Map<string, RatingCount>();
    for (const { agentId, rating } of this.ratings.values()) {
      const key = `${agentId}\u0000${rating}`;
      const known = counts.get(key) ?? { agentId, rating, count: 0 };
      known.count += 1;
      counts.set(key, known);
    }
    return [...counts.values()];
  }

  /** The run's rating, read synchronously. */
  peek(runId: string): StoredRating | undefined {
    return this.ratings.get(runId);
  }
}

/** The public side of the in-memory store. */
export class MemoryPublicChatStores implements PublicChatStores {
  readonly chats = new MemoryPublicChatStore();
  readonly visitors = new MemoryVisitorSessionStore();
  readonly ratings = new MemoryRunRatingStore();
}
