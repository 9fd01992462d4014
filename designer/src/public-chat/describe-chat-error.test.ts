import { describe, expect, it } from "vitest";
import { ChatApiError, getRetryAfterSeconds } from "./chat-api.js";
import { describeChatError } from "./describe-chat-error.js";

const refusal = (status: number, code: string, retryAfterS: number | null = null) =>
  new ChatApiError({ status, code, message: `server says ${code}`, retryAfterS });

describe("describeChatError", () => {
  it("tells how long to wait after too many messages", () => {
    expect(describeChatError(refusal(429, "rate_limited", 17))).toEqual({
      text: "Too many messages, try again in 17 s.",
      action: "retry",
    });
    expect(describeChatError(refusal(429, "rate_limited")).text).toBe(
      "Too many messages, try again in a moment.",
    );
  });

  it("offers a new conversation when this one is full or gone", () => {
    expect(describeChatError(refusal(409, "session_full")).action).toBe("new-conversation");
    expect(describeChatError(refusal(404, "not_found")).action).toBe("new-conversation");
  });

  it("says how long a message may be", () => {
    expect(describeChatError(refusal(413, "payload_too_large"), { maxMessageChars: 4000 }).text).toBe(
      "Your message is too long: keep it under 4,000 characters.",
    );
  });

  it("says a connection problem plainly, and shows other refusals' own words", () => {
    expect(describeChatError(new TypeError("Failed to fetch")).text).toBe(
      "Could not reach the chat. Check your connection and try again.",
    );
    expect(describeChatError(refusal(500, "internal")).text).toBe(
      "The chat ran into a problem on its side. Try again in a moment.",
    );
    expect(describeChatError(refusal(400, "validation_failed")).text).toBe("server says validation_failed");
  });
});

describe("getRetryAfterSeconds", () => {
  it("reads seconds or an HTTP date", () => {
    expect(getRetryAfterSeconds("12")).toBe(12);
    expect(getRetryAfterSeconds("0.2")).toBe(1);
    expect(getRetryAfterSeconds(null)).toBeNull();
    expect(getRetryAfterSeconds("soon")).toBeNull();
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(getRetryAfterSeconds("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30);
  });
});
