import { describe, expect, it } from "vitest";
import { UnwatchAgentMessage, WatchAgentAck, WatchAgentMessage } from "./socket.js";

describe("watch_agent messages", () => {
  it("takes an agent id and nothing else", () => {
    expect(WatchAgentMessage.parse({ agentId: "email-approval" })).toEqual({ agentId: "email-approval" });
    expect(WatchAgentMessage.safeParse({ agentId: "Not A Slug" }).success).toBe(false);
    expect(WatchAgentMessage.safeParse({ agentId: "a", extra: 1 }).success).toBe(false);
    expect(WatchAgentMessage.safeParse("a").success).toBe(false);
    expect(UnwatchAgentMessage.safeParse({}).success).toBe(false);
  });

  it("acks ok or an error body", () => {
    expect(WatchAgentAck.safeParse({ ok: true }).success).toBe(true);
    expect(WatchAgentAck.safeParse({ ok: false, error: { code: "x", message: "y" } }).success).toBe(true);
    expect(WatchAgentAck.safeParse({ ok: false }).success).toBe(false);
  });
});
