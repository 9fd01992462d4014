import { describe, expect, it } from "vitest";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { createApiRequester } from "./api-requester.js";
import { createSessionsApi } from "./sessions-api.js";

function setup(handler: Parameters<typeof createRecordingFetch>[0]) {
  const { fetcher, calls } = createRecordingFetch(handler);
  return { client: createSessionsApi(createApiRequester({ getToken: () => null, fetch: fetcher })), calls };
}

describe("createSessionsApi", () => {
  it("starts a turn on the session's own route, with its query and tool context", async () => {
    const { client, calls } = setup(() => ({
      status: 202,
      body: { runId: "run_1", sessionId: "ses_a1", turn: 2 },
    }));
    await expect(
      client.startTurn("ses_a1", { query: "And then?", context: { user: "u1" } }),
    ).resolves.toEqual({
      runId: "run_1",
      sessionId: "ses_a1",
      turn: 2,
    });
    expect(calls).toMatchObject([
      {
        method: "POST",
        url: "/api/sessions/ses_a1/turns",
        body: { query: "And then?", context: { user: "u1" } },
      },
    ]);
  });

  it("keeps the reason of a refused turn, and checks the answer's shape", async () => {
    let answer: { status: number; body?: unknown } = {
      status: 409,
      body: {
        code: "invalid_state",
        message: "Turn 1 is still running.",
        details: { reason: "turn_in_progress" },
      },
    };
    const { client } = setup(() => answer);
    await expect(client.startTurn("ses_a1", { query: "q" })).rejects.toMatchObject({
      status: 409,
      details: { reason: "turn_in_progress" },
    });
    answer = { status: 202, body: { runId: "run_1" } };
    await expect(client.startTurn("ses_a1", { query: "q" })).rejects.toMatchObject({
      code: "invalid_response",
    });
  });

  it("lists, reads, closes and reads the log of sessions, and decides merges, on the documented routes", async () => {
    const { client, calls } = setup(({ url }) => {
      if (url.startsWith("/api/sessions?")) return { status: 200, body: { sessions: [] } };
      if (url.includes("/events")) return { status: 200, body: { events: [] } };
      if (url.includes("/merges/"))
        return {
          status: 202,
          body: { sessionId: "ses_a1", mergeId: "m 1", decision: "approve", status: "idle" },
        };
      return { status: 404, body: { code: "not_found", message: 'Session "ses_a1" does not exist.' } };
    });
    await client.listSessions({ agentId: "a", limit: 5 });
    await client.getSessionEvents("ses_a1", 7);
    await client.decideMerge("ses_a1", "m 1", { decision: "approve" });
    await expect(client.closeSession("ses_a1")).rejects.toMatchObject({ code: "not_found" });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET /api/sessions?agentId=a&limit=5",
      "GET /api/sessions/ses_a1/events?after=7",
      "POST /api/sessions/ses_a1/merges/m%201",
      "DELETE /api/sessions/ses_a1",
    ]);
  });
});
