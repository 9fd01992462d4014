import { describe, expect, it } from "vitest";
import { getThreadSessionId } from "./agui-thread.js";

describe("getThreadSessionId", () => {
  it("is the session a key's thread names, and a stable hash of any other thread id", () => {
    expect(getThreadSessionId("ses_4f9c2a1b")).toBe("ses_4f9c2a1b");
    const hashed = getThreadSessionId("0b7e1d5c-2f1a-4c55-9a3e-7d0f0f1b2c3d");
    expect(hashed).toMatch(/^ses_agui_[0-9a-f]{32}$/);
    expect(getThreadSessionId("0b7e1d5c-2f1a-4c55-9a3e-7d0f0f1b2c3d")).toBe(hashed);
    expect(getThreadSessionId("another-thread")).not.toBe(hashed);
  });

  it("keeps a publishable key's threads inside its chat: never a session named outright", () => {
    const own = getThreadSessionId("ses_4f9c2a1b", "pub_a");
    expect(own).toMatch(/^ses_agui_/);
    expect(own).not.toBe("ses_4f9c2a1b");
    expect(getThreadSessionId("thread-1", "pub_a")).not.toBe(getThreadSessionId("thread-1", "pub_b"));
    expect(getThreadSessionId("thread-1", "pub_a")).not.toBe(getThreadSessionId("thread-1"));
  });
});
