import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Redis } from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import { ApiError } from "../shared/api-error.js";
import { ConfigError } from "../shared/config-error.js";
import { actorOf, type Actor } from "./actor.js";
import { outsideRequestContext } from "./request-context.js";

/** `N` requests per `seconds`: one bucket of `N`, full again each period. */
export interface RateLimit {
  points: number;
  seconds: number;
  /** As written: `60/min`. */
  text: string;
}

export const DEFAULT_RATE_LIMIT = "60/min";
/** Failed sign-ins one address may make per minute; then it is refused for the rest of the minute. */
export const SIGN_IN_LIMIT = "10/min";

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, min: 60, h: 3_600 };
const LIMIT_FORMAT = /^(\d{1,9})\s*\/\s*(s|min|h)$/;

/** Reads `60/min`, `5/s` or `1000/h`; a `ConfigError` naming `name` otherwise. */
export function parseRateLimit(text: string, name = "WADDLE_RATE_LIMIT"): RateLimit {
  const match = LIMIT_FORMAT.exec(text.trim());
  const points = match ? Number(match[1]) : 0;
  if (!match || points < 1) {
    throw new ConfigError(
      `${name}=${JSON.stringify(text)} is not a rate limit: write N/s, N/min or N/h with N at least 1, such as ${DEFAULT_RATE_LIMIT}.`,
    );
  }
  return { points, seconds: UNIT_SECONDS[match[2]!]!, text: `${points}/${match[2]}` };
}

/** 429 `rate_limited`; `details.retryAfterSeconds` is also sent as `Retry-After`. */
export class RateLimitedError extends ApiError {
  constructor(message: string, retryAfterSeconds: number, details: Record<string, unknown> = {}) {
    super("rate_limited", message, { ...details, retryAfterSeconds });
    this.name = "RateLimitedError";
  }

  get retryAfterSeconds(): number {
    return (this.details as { retryAfterSeconds: number }).retryAfterSeconds;
  }
}

function getRetryAfter(result: RateLimiterRes): number {
  return Math.max(1, Math.ceil(result.msBeforeNext / 1000));
}

/**
 * Token buckets per key and per agent on the routes that start work (rate-limiter-flexible): in this
 * process (`RateLimiterMemory`), or in Redis in queue mode (`RateLimiterRedis` on the instance's
 * connection) so that every instance draws from one bucket. A key's own `rateLimit` replaces the default
 * for its bucket; an agent's bucket has the default. Should Redis fail, each instance limits on its own
 * meanwhile (the insurance limiter) rather than refusing everything.
 */
export class RateLimits {
  readonly limit: RateLimit;
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  /** Sign-in: addresses refused until (ms), as this instance last learnt from the shared bucket. */
  private readonly blocked = new Map<string, number>();

  constructor(
    private readonly options: {
      limit?: RateLimit;
      redis?: Redis;
      /** Keeps instances of different deployments on one Redis apart. */
      prefix?: string;
      signIn?: RateLimit;
      /**
       * Limit the local user of a server without keys or token too. Off unless `WADDLE_RATE_LIMIT` is
       * set: the local, single-user start behaves as before.
       */
      limitLocal?: boolean;
      now?: () => number;
    } = {},
  ) {
    this.limit = options.limit ?? parseRateLimit(DEFAULT_RATE_LIMIT);
  }

  /** Takes one token from the actor's bucket and from the agent's; `RateLimitedError` when either is empty. */
  async consume(actor: Actor, agentId?: string): Promise<void> {
    if (!this.applies(actor)) return;
    const keyLimit = this.getKeyLimit(actor);
    const bucket = actor.keyId ? `key:${actor.keyId}` : `${actor.kind}:${actor.name}`;
    await this.take(keyLimit, bucket, () => ({
      message: `Too many requests for ${actor.kind === "key" ? `the key "${actor.name}"` : "this server"}: its limit is ${keyLimit.text}.`,
      details: { limit: keyLimit.text, scope: "key" },
    }));
    if (agentId === undefined) return;
    await this.take(this.limit, `agent:${agentId}`, () => ({
      message: `Too many requests for the agent "${agentId}": its limit is ${this.limit.text}.`,
      details: { limit: this.limit.text, scope: "agent", agentId },
    }));
  }

  /**
   * Express middleware for a route that starts work: `getAgentId` reads the agent from the request (after
   * the JSON body parser). Sets `Retry-After` and passes `RateLimitedError` on, for the surface's own error
   * shape (the API's, OpenAI's on `/v1`, JSON-RPC on `/mcp`). A2A routes apply it the same way.
   */
  middleware(
    getAgentId: (request: Request) => string | undefined | Promise<string | undefined> = () => undefined,
  ): RequestHandler {
    return (request: Request, response: Response, next: NextFunction) => {
      const actor = actorOf(response);
      if (!this.applies(actor)) return next();
      Promise.resolve(getAgentId(request))
        .then((agentId) => this.consume(actor, agentId))
        .then(
          () => next(),
          (error: unknown) => {
            if (error instanceof RateLimitedError) response.setHeader("retry-after", error.retryAfterSeconds);
            next(error);
          },
        );
    };
  }

  /**
   * Takes one token from a named bucket of `limit`, whoever asks (a public chat's visitor and the chat as a
   * whole: server/src/public); `RateLimitedError` when it is empty. Shared through Redis in queue mode.
   */
  async consumeBucket(options: {
    limit: RateLimit;
    bucket: string;
    message: string;
    details?: Record<string, unknown>;
  }): Promise<void> {
    const { limit, bucket, message, details = {} } = options;
    await this.take(limit, bucket, () => ({ message, details: { limit: limit.text, ...details } }));
  }

  /** Seconds until `ip` may sign in again; undefined when it may now. */
  getSignInWait(ip: string): number | undefined {
    const until = this.blocked.get(ip);
    if (until === undefined) return undefined;
    const left = until - this.now();
    if (left <= 0) {
      this.blocked.delete(ip);
      return undefined;
    }
    return Math.ceil(left / 1000);
  }

  /**
   * Counts a failed sign-in of `ip`; once the address has used up the sign-in limit it is refused for the
   * rest of the window (the count is shared by every instance in queue mode).
   */
  async noteFailedSignIn(ip: string): Promise<void> {
    const limit = this.options.signIn ?? parseRateLimit(SIGN_IN_LIMIT);
    let result: RateLimiterRes;
    try {
      result = await outsideRequestContext(() => this.getLimiter(limit, "signin").consume(ip));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) return;
      result = error;
    }
    if (result.remainingPoints > 0) return;
    this.blocked.set(ip, this.now() + getRetryAfter(result) * 1000);
  }

  private async take(
    limit: RateLimit,
    bucket: string,
    describe: () => { message: string; details: Record<string, unknown> },
  ): Promise<void> {
    try {
      // Outside the request's context: the in-memory bucket's expiry timer would otherwise hold this
      // request's response (the context's value) for the whole window, a minute or an hour.
      await outsideRequestContext(() => this.getLimiter(limit, "work").consume(bucket));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const { message, details } = describe();
      const wait = getRetryAfter(error);
      throw new RateLimitedError(`${message} Try again in ${wait} s.`, wait, details);
    }
  }

  /** The local user of a server without keys is limited only when `limitLocal`. */
  private applies(actor: Actor): boolean {
    return actor.kind !== "local" || this.options.limitLocal === true;
  }

  private getKeyLimit(actor: Actor): RateLimit {
    if (actor.rateLimit === undefined) return this.limit;
    try {
      return parseRateLimit(actor.rateLimit, `the key's rateLimit`);
    } catch {
      return this.limit;
    }
  }

  /** One limiter per limit (rate-limiter-flexible fixes points and duration per limiter). */
  private getLimiter(limit: RateLimit, purpose: string): RateLimiterAbstract {
    const name = `${purpose}:${limit.points}:${limit.seconds}`;
    const known = this.limiters.get(name);
    if (known) return known;
    const keyPrefix = `${this.options.prefix ?? "waddle"}:rl:${name}`;
    const base = { points: limit.points, duration: limit.seconds, keyPrefix };
    const limiter = this.options.redis
      ? new RateLimiterRedis({
          ...base,
          storeClient: this.options.redis,
          insuranceLimiter: new RateLimiterMemory(base),
        })
      : new RateLimiterMemory(base);
    this.limiters.set(name, limiter);
    return limiter;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

/** Makes the app's limits reachable from any router (`limitWork`). */
export function provideRateLimits(limits: RateLimits): RequestHandler {
  return (_request, response, next) => {
    response.locals["rateLimits"] = limits;
    next();
  };
}

/**
 * The rate limit of a route that starts work, for routers mounted in `createApp` (A2A's `message/send`
 * and `message/stream`): `router.post("/a2a/:agentId", limitWork((request) => request.params.agentId))`,
 * after the JSON body parser when the agent is read from the body. 429 `rate_limited` with `Retry-After`.
 */
export function limitWork(
  getAgentId: (request: Request) => string | undefined | Promise<string | undefined> = () => undefined,
): RequestHandler {
  return (request, response, next) => {
    const limits = response.locals["rateLimits"] as RateLimits | undefined;
    if (!limits) return next();
    limits.middleware(getAgentId)(request, response, next);
  };
}

/**
 * App-level guard for sign-in attempts: an address past the sign-in limit is answered 429 (with
 * `Retry-After`) before any key check, and every 401 the app sends counts as a failed attempt of its
 * address (audited as `auth.failed`, rate-limited in the log). HTTP key checks need do nothing more;
 * a refused socket handshake (no HTTP 401) calls `limits.noteFailedSignIn(ip)` and
 * `trail.noteFailedSignIn(ip)` itself.
 */
export function createSignInGuard(options: {
  limits: RateLimits;
  onFailed?: (ip: string) => void;
}): RequestHandler {
  return (request, response, next) => {
    const ip = request.ip ?? request.socket.remoteAddress ?? "unknown";
    const wait = options.limits.getSignInWait(ip);
    if (wait !== undefined) {
      response.setHeader("retry-after", wait);
      next(
        new RateLimitedError(`Too many failed sign-ins from this address: try again in ${wait} s.`, wait, {
          scope: "sign-in",
        }),
      );
      return;
    }
    response.once("finish", () => {
      if (response.statusCode !== 401) return;
      options.onFailed?.(ip);
      void options.limits.noteFailedSignIn(ip);
    });
    next();
  };
}
