import type { Response } from "express";
import { parseRateLimit, RateLimitedError, type RateLimits } from "../access/rate-limits.js";
import type { StoredPublicChat } from "../store/public/public-chat-store.js";

/** Each visitor's limit when the chat sets none: new conversations and messages together. */
export const PUBLIC_VISITOR_RATE_LIMIT = "20/min";

/**
 * Takes one token from the visitor's bucket (`rateLimit`, else `PUBLIC_VISITOR_RATE_LIMIT`) and from the
 * chat's (`chatRateLimit`, all visitors together; none when unset), for a request that starts work (a new
 * conversation, a message). 429 `rate_limited` with `Retry-After` when either is empty. The buckets are the
 * server's (`RateLimits`): in Redis in queue mode, so every instance draws from the same ones.
 */
export async function limitPublicWork(options: {
  limits: RateLimits;
  chat: StoredPublicChat;
  /** Undefined for a visitor not known yet (their first conversation): the chat's bucket only. */
  visitorId: string | undefined;
  response: Response;
}): Promise<void> {
  const { limits, chat, visitorId, response } = options;
  const { rateLimit, chatRateLimit } = chat.settings;
  try {
    if (visitorId !== undefined) {
      const limit = parseRateLimit(rateLimit ?? PUBLIC_VISITOR_RATE_LIMIT, "rateLimit");
      await limits.consumeBucket({
        limit,
        bucket: `public:${chat.publicId}:visitor:${visitorId}`,
        message: `Too many messages: this chat takes ${limit.text} from each visitor.`,
        details: { scope: "visitor" },
      });
    }
    if (chatRateLimit !== undefined) {
      const limit = parseRateLimit(chatRateLimit, "chatRateLimit");
      await limits.consumeBucket({
        limit,
        bucket: `public:${chat.publicId}:chat`,
        message: `This chat is busy: it takes ${limit.text} from all its visitors together.`,
        details: { scope: "chat" },
      });
    }
  } catch (error) {
    if (error instanceof RateLimitedError) response.setHeader("retry-after", error.retryAfterSeconds);
    throw error;
  }
}
