import { describe, expect, it } from "vitest";
import { readServerConfig } from "../config.js";
import { isApiError } from "../shared/api-error.js";
import { LOCAL_ACTOR, type Actor } from "./actor.js";
import { parseRateLimit, RateLimitedError, RateLimits } from "./rate-limits.js";

const key = (name: string, rateLimit?: string): Actor => ({
  kind: "key",
  name,
  keyId: `key_${name}`,
  role: "runner",
  agents: null,
  canDecide: false,
  ...(rateLimit ? { rateLimit } : {}),
});

async function refusal(promise: Promise<unknown>): Promise<RateLimitedError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RateLimitedError);
  return error as RateLimitedError;
}

describe("WADDLE_RATE_LIMIT", () => {
  it("reads N/s, N/min and N/h", () => {
    expect(parseRateLimit("60/min")).toEqual({ points: 60, seconds: 60, text: "60/min" });
    expect(parseRateLimit(" 5 / s ")).toEqual({ points: 5, seconds: 1, text: "5/s" });
    expect(parseRateLimit("1000/h")).toEqual({ points: 1000, seconds: 3600, text: "1000/h" });
    expect(readServerConfig({}).rateLimit).toBeUndefined();
    expect(readServerConfig({ WADDLE_RATE_LIMIT: "10/s" }).rateLimit).toBe("10/s");
  });

  it.each(["60", "0/min", "-1/s", "ten/min", "60/minute", "60/d", "1.5/s", "/min"])(
    "refuses %j at startup with a message naming the variable and the forms",
    (value) => {
      expect(() => readServerConfig({ WADDLE_RATE_LIMIT: value })).toThrow(
        /WADDLE_RATE_LIMIT=.* is not a rate limit: write N\/s, N\/min or N\/h/,
      );
      try {
        readServerConfig({ WADDLE_RATE_LIMIT: value });
      } catch (error) {
        expect(isApiError(error, "invalid_config")).toBe(true);
      }
    },
  );
});

describe("RateLimits", () => {
  it("gives each key its own bucket, and each agent one that every key shares", async () => {
    const limits = new RateLimits({ limit: parseRateLimit("2/h") });
    await limits.consume(key("alice"), "agent-a");
    await limits.consume(key("alice"), "agent-b");
    const own = await refusal(limits.consume(key("alice"), "agent-c"));
    expect(own.status).toBe(429);
    expect(own.code).toBe("rate_limited");
    expect(own.details).toMatchObject({ scope: "key", limit: "2/h" });
    expect(own.message).toMatch(/the key "alice".*2\/h/);
    expect(own.retryAfterSeconds).toBeGreaterThan(3000);
    // Another key has a full bucket, but agent-a's has one token left (alice took one).
    await limits.consume(key("bob"), "agent-a");
    const agent = await refusal(limits.consume(key("carol"), "agent-a"));
    expect(agent.details).toMatchObject({ scope: "agent", agentId: "agent-a" });
    await limits.consume(key("carol"), "agent-d");
  });

  it("uses a key's own rateLimit for its bucket", async () => {
    const limits = new RateLimits({ limit: parseRateLimit("1/h") });
    const generous = key("batch", "3/h");
    await limits.consume(generous);
    await limits.consume(generous);
    await limits.consume(generous);
    expect((await refusal(limits.consume(generous))).details).toMatchObject({ limit: "3/h" });
    await limits.consume(key("plain"));
    expect((await refusal(limits.consume(key("plain")))).details).toMatchObject({ limit: "1/h" });
  });

  it("leaves the local user alone unless WADDLE_RATE_LIMIT was set", async () => {
    const limits = new RateLimits({ limit: parseRateLimit("1/h") });
    for (let request = 0; request < 5; request += 1) await limits.consume(LOCAL_ACTOR, "agent");
    await limits.consume(key("alice"), "other");
    await refusal(limits.consume(key("alice"), "other"));
  });

  it("refills the bucket once its period has passed", async () => {
    const limits = new RateLimits({ limit: parseRateLimit("2/s"), limitLocal: true });
    await limits.consume(LOCAL_ACTOR, "agent");
    await limits.consume(LOCAL_ACTOR, "agent");
    const refused = await refusal(limits.consume(LOCAL_ACTOR, "agent"));
    expect(refused.retryAfterSeconds).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, refused.retryAfterSeconds * 1000 + 50));
    await limits.consume(LOCAL_ACTOR, "agent");
    await limits.consume(LOCAL_ACTOR, "agent");
    await refusal(limits.consume(LOCAL_ACTOR, "agent"));
  });

  it("refuses an address after too many failed sign-ins, until the window ends", async () => {
    const limits = new RateLimits({ signIn: parseRateLimit("3/min") });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await limits.noteFailedSignIn("10.0.0.1");
      expect(limits.getSignInWait("10.0.0.1")).toBeUndefined();
    }
    await limits.noteFailedSignIn("10.0.0.1");
    expect(limits.getSignInWait("10.0.0.1")).toBeGreaterThan(50);
    expect(limits.getSignInWait("10.0.0.1")).toBeLessThanOrEqual(60);
    expect(limits.getSignInWait("10.0.0.2")).toBeUndefined();
  });
});
