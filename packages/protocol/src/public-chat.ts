import { z } from "zod";
import { ChannelName } from "./releases.js";

/**
 * Publishing an agent to people (issue 33): a public chat per agent, served to anonymous visitors under
 * `/public/:publicId/…`, on the hosted page `/chat/:publicId` and the embed `/embed.js`.
 */

/** A rate limit as `WADDLE_RATE_LIMIT` writes it: `N/s`, `N/min` or `N/h`. */
export const RateLimitText = z
  .string()
  .regex(/^[1-9][0-9]{0,6}\/(s|min|h)$/, "must be a rate limit such as 20/min or 200/h");

/** The largest message a visitor may send, in characters, unless the server says otherwise (413 past it). */
export const PUBLIC_MAX_MESSAGE_CHARS = 4_000;

/** Refusals of the public chat: `public_chat_not_configured` (GET before any PUT), `session_full`. */
export const PUBLIC_CHAT_ERROR_CODES = ["public_chat_not_configured", "session_full"] as const;

/** An origin as browsers send it: scheme, host and port, nothing else. `*` is an explicit choice. */
export const ANY_ORIGIN = "*";

/** How much of the agent's work a visitor sees under each answer. */
export const ShowSteps = z.enum(["none", "names", "full"]);
export type ShowSteps = z.infer<typeof ShowSteps>;

export const PublicChatTheme = z.strictObject({
  /** A CSS hex colour, `#2563eb`. */
  accent: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "must be a hex colour such as #2563eb")
    .optional(),
  logoUrl: z
    .url({ protocol: /^https?$/ })
    .max(2_000)
    .optional(),
});
export type PublicChatTheme = z.infer<typeof PublicChatTheme>;

/** `PUT /api/agents/:id/public`. `allowedOrigins` entries are checked server-side (400 naming the entry). */
export const PublicChatSettings = z.strictObject({
  enabled: z.boolean(),
  /** The channel visitors are served; default `production` (the latest save while the agent has none). */
  channel: ChannelName.optional(),
  title: z.string().trim().min(1).max(120),
  welcome: z.string().max(2_000).optional(),
  starters: z.array(z.string().trim().min(1).max(200)).max(6).optional(),
  allowedOrigins: z.array(z.string().max(300)).max(50),
  /** Must be true for `allowedOrigins: ["*"]`: any site may embed the chat. */
  allowAnyOrigin: z.boolean().optional(),
  showSteps: ShowSteps,
  /** Per visitor. */
  rateLimit: RateLimitText.optional(),
  /** For the whole public chat, all visitors together. */
  chatRateLimit: RateLimitText.optional(),
  /** Turns per conversation; the next is 409 `session_full`. */
  maxTurns: z.int().min(1).max(1_000).optional(),
  theme: PublicChatTheme.optional(),
});
export type PublicChatSettings = z.infer<typeof PublicChatSettings>;

/** `GET`/`PUT /api/agents/:id/public`: the settings and what a page needs to reach them. */
export const PublicChat = PublicChatSettings.extend({
  agentId: z.string(),
  /** Random, never the agent id: the public routes and the page address use it. */
  publicId: z.string(),
  /** `wpk_…`: sent by the page as `x-waddle-public-key`; rotated by `POST …/public/rotate-key`. */
  publishableKey: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export type PublicChat = z.infer<typeof PublicChat>;

/** `GET /public/:publicId/config`: what the page shows before the first message. */
export const PublicChatConfig = z.object({
  title: z.string(),
  welcome: z.string().nullable(),
  starters: z.array(z.string()),
  theme: z.object({ accent: z.string().nullable(), logoUrl: z.string().nullable() }),
  showSteps: ShowSteps,
  maxTurns: z.int().positive().nullable(),
  /** The largest message the server takes, in characters (longer is 413). */
  maxMessageChars: z.int().positive(),
});
export type PublicChatConfig = z.infer<typeof PublicChatConfig>;

/** `POST /public/:publicId/sessions` → 201. The page keeps both; the token is `Authorization: Bearer`. */
export const PublicSessionCreated = z.object({ sessionId: z.string(), visitorToken: z.string() });
export type PublicSessionCreated = z.infer<typeof PublicSessionCreated>;

/** `POST /public/:publicId/sessions/:id/turns`. */
export const PublicTurnRequest = z.strictObject({ query: z.string().trim().min(1) });
export type PublicTurnRequest = z.infer<typeof PublicTurnRequest>;

/** One step under an answer: names only, or with args and result when `showSteps` is `full`. */
export const PublicStep = z.object({
  name: z.string(),
  status: z.enum(["running", "done", "failed"]),
  args: z.unknown().optional(),
  result: z.unknown().optional(),
});
export type PublicStep = z.infer<typeof PublicStep>;

export const Rating = z.enum(["up", "down"]);
export type Rating = z.infer<typeof Rating>;

/** A visitor's rating of one answer (a run), as the run's record and History show it. */
export const RunRating = z.object({
  rating: Rating,
  comment: z.string().nullable(),
  ratedAt: z.string(),
});
export type RunRating = z.infer<typeof RunRating>;

/** A turn as the visitor sees it. `waiting`: paused for a person (the message never shows tool args). */
export const PublicTurn = z.object({
  runId: z.string(),
  turn: z.int().positive(),
  query: z.string(),
  status: z.enum(["running", "waiting", "finished", "failed"]),
  answer: z.string().nullable(),
  waitingFor: z.string().nullable(),
  steps: z.array(PublicStep),
  rating: Rating.nullable(),
});
export type PublicTurn = z.infer<typeof PublicTurn>;

/** `GET /public/:publicId/sessions/:id`: the visitor's own transcript. */
export const PublicTranscript = z.object({
  sessionId: z.string(),
  turns: z.array(PublicTurn),
  /** The turns left before `session_full` (null: no limit). */
  turnsLeft: z.int().nonnegative().nullable(),
});
export type PublicTranscript = z.infer<typeof PublicTranscript>;

/**
 * The SSE stream of a turn (`POST …/turns`, and `GET …/sessions/:id/stream` to follow a turn still going
 * after a reload). Each SSE message's `event:` is the `type`, its `data:` this object as JSON.
 * A paused turn sends `waiting` and keeps the stream open (comments keep it alive) until a person decides.
 */
export const PublicStreamEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("turn_started"), runId: z.string(), turn: z.int().positive() }),
  /** A piece of the answer as the model writes it. */
  z.object({ type: z.literal("delta"), text: z.string() }),
  z.object({ type: z.literal("step"), step: PublicStep }),
  z.object({ type: z.literal("waiting"), message: z.string() }),
  z.object({ type: z.literal("resumed") }),
  z.object({ type: z.literal("answer"), runId: z.string(), answer: z.string() }),
  z.object({ type: z.literal("error"), code: z.string(), message: z.string() }),
  z.object({ type: z.literal("done"), status: PublicTurn.shape.status }),
]);
export type PublicStreamEvent = z.infer<typeof PublicStreamEvent>;

/** `POST /public/:publicId/sessions/:id/feedback`. */
export const PublicFeedbackRequest = z.strictObject({
  runId: z.string().min(1),
  rating: Rating,
  comment: z.string().trim().max(2_000).optional(),
});
export type PublicFeedbackRequest = z.infer<typeof PublicFeedbackRequest>;
