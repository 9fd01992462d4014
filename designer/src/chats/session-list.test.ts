import type { SessionSummary } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { filterSessions, upsertSession } from "./session-list.js";

const summary = (
  id: string,
  updatedAt: string,
  title = id,
  lastQuery: string | null = null,
): SessionSummary => ({
  id,
  agentId: "a",
  agentVersion: 1,
  title,
  status: "idle",
  usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt,
  turnCount: 0,
  lastQuery,
});

describe("upsertSession", () => {
  it("adds or replaces a session, newest activity first, and ignores an update older than the one held", () => {
    const list = [summary("s1", "2026-01-03T00:00:00Z"), summary("s2", "2026-01-02T00:00:00Z")];
    expect(upsertSession(list, summary("s3", "2026-01-04T00:00:00Z")).map((s) => s.id)).toEqual([
      "s3",
      "s1",
      "s2",
    ]);
    expect(
      upsertSession(list, summary("s2", "2026-01-05T00:00:00Z", "renamed")).map((s) => [s.id, s.title]),
    ).toEqual([
      ["s2", "renamed"],
      ["s1", "s1"],
    ]);
    expect(upsertSession(list, summary("s1", "2026-01-01T00:00:00Z", "stale"))[0]!.title).toBe("s1");
  });
});

describe("filterSessions", () => {
  it("keeps sessions whose title or last message hold every word, in any case", () => {
    const list = [
      summary("s1", "1", "Duplicate charge in March", "And the refund?"),
      summary("s2", "1", "Reset 2FA", null),
    ];
    expect(filterSessions(list, "").map((s) => s.id)).toEqual(["s1", "s2"]);
    expect(filterSessions(list, "march REFUND").map((s) => s.id)).toEqual(["s1"]);
    expect(filterSessions(list, "2fa").map((s) => s.id)).toEqual(["s2"]);
    expect(filterSessions(list, "march 2fa")).toEqual([]);
  });
});
