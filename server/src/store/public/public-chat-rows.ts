import { PublicChatSettings, Rating } from "@waddle/protocol";
import { z } from "zod";
import type { StoredPublicChat } from "./public-chat-store.js";
import type { StoredRating } from "./run-rating-store.js";
import type { VisitorSession } from "./visitor-session-store.js";

/** The columns of `public_chats`, in the order of `toPublicChatValues`. */
export const PUBLIC_CHAT_COLUMNS =
  "agent_id, public_id, key_id, publishable_key, visitor_secret, settings, created_at, updated_at, updated_by";
export const VISITOR_SESSION_COLUMNS = "session_id, public_id, agent_id, visitor_id, created_at";
export const RATING_COLUMNS = "run_id, agent_id, session_id, rating, comment, created_at";

const PublicChatRow = z.object({
  agent_id: z.string(),
  public_id: z.string(),
  key_id: z.string(),
  publishable_key: z.string(),
  visitor_secret: z.string(),
  settings: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  updated_by: z.string(),
});
const VisitorSessionRow = z.object({
  session_id: z.string(),
  public_id: z.string(),
  agent_id: z.string(),
  visitor_id: z.string(),
  created_at: z.string(),
});
const RatingRow = z.object({
  run_id: z.string(),
  agent_id: z.string(),
  session_id: z.string().nullable(),
  rating: Rating,
  comment: z.string().nullable(),
  created_at: z.string(),
});

export function toPublicChatValues(chat: StoredPublicChat): unknown[] {
  return [
    chat.agentId,
    chat.publicId,
    chat.keyId,
    chat.publishableKey,
    chat.visitorSecret,
    JSON.stringify(chat.settings),
    chat.createdAt,
    chat.updatedAt,
    chat.updatedBy,
  ];
}

/** A stored row, checked: its settings are read with the same schema a PUT is. */
export function toStoredPublicChat(row: unknown): StoredPublicChat {
  const parsed = PublicChatRow.parse(row);
  return {
    agentId: parsed.agent_id,
    publicId: parsed.public_id,
    keyId: parsed.key_id,
    publishableKey: parsed.publishable_key,
    visitorSecret: parsed.visitor_secret,
    settings: PublicChatSettings.parse(JSON.parse(parsed.settings)),
    createdAt: parsed.created_at,
    updatedAt: parsed.updated_at,
    updatedBy: parsed.updated_by,
  };
}

export function toVisitorSessionValues(session: VisitorSession): unknown[] {
  return [session.sessionId, session.publicId, session.agentId, session.visitorId, session.createdAt];
}

export function toVisitorSession(row: unknown): VisitorSession {
  const parsed = VisitorSessionRow.parse(row);
  return {
    sessionId: parsed.session_id,
    publicId: parsed.public_id,
    agentId: parsed.agent_id,
    visitorId: parsed.visitor_id,
    createdAt: parsed.created_at,
  };
}

export function toRatingValues(rating: StoredRating): unknown[] {
  return [rating.runId, rating.agentId, rating.sessionId, rating.rating, rating.comment, rating.createdAt];
}

export function toStoredRating(row: unknown): StoredRating {
  const parsed = RatingRow.parse(row);
  return {
    runId: parsed.run_id,
    agentId: parsed.agent_id,
    sessionId: parsed.session_id,
    rating: parsed.rating,
    comment: parsed.comment,
    createdAt: parsed.created_at,
  };
}

/** A count as SQLite (number) or PostgreSQL (`COUNT(*)` is a bigint, read as a string) answers it. */
export function toRatingCount(row: unknown): { agentId: string; rating: Rating; count: number } {
  const parsed = z
    .object({ agent_id: z.string(), rating: Rating, count: z.union([z.number(), z.string()]) })
    .parse(row);
  return { agentId: parsed.agent_id, rating: parsed.rating, count: Number(parsed.count) };
}
