import { describe, expect, it } from "vitest";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { createApiRequester } from "./api-requester.js";
import { createInboxApi, getInboxSearchParams } from "./inbox-api.js";

const item = {
  itemId: "pause:run_1",
  kind: "pause",
  agentId: "mailer",
  agentVersion: 2,
  runId: "run_1",
  reason: "approval_required",
  tool: "send_email",
  argsPreview: '{"to":"dana@example.com"}',
  startedBy: "alice",
  createdAt: "2026-01-05T09:00:00Z",
  resumeToken: "tok",
};

describe("getInboxSearchParams", () => {
  it("sends only the filters that are set, in a stable order", () => {
    expect(getInboxSearchParams({}).toString()).toBe("");
    expect(
      getInboxSearchParams({ state: "open", agentId: "mailer", assignee: "none", limit: 50 }).toString(),
    ).toBe("agentId=mailer&assignee=none&state=open&limit=50");
    expect(getInboxSearchParams({ kind: "merge", cursor: "c 1", agentId: "" }).toString()).toBe(
      "kind=merge&cursor=c+1",
    );
  });
});

describe("createInboxApi", () => {
  it("lists, assigns and snoozes on the inbox routes, answers checked", async () => {
    const { fetcher, calls } = createRecordingFetch(({ url }) =>
      url.startsWith("/api/inbox?") || url === "/api/inbox"
        ? { status: 200, body: { items: [item], nextCursor: null, openCount: 3 } }
        : { status: 200, body: { item: { ...item, assignee: "bob" } } },
    );
    const api = createInboxApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(api.listInbox({ state: "open" })).resolves.toMatchObject({ openCount: 3 });
    await expect(api.assignInboxItem("pause:run_1", "bob")).resolves.toMatchObject({ assignee: "bob" });
    await api.snoozeInboxItem("pause:run_1", "2026-01-05T10:00:00.000Z");
    await api.listInbox();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET /api/inbox?state=open",
      "POST /api/inbox/pause%3Arun_1/assign",
      "POST /api/inbox/pause%3Arun_1/snooze",
      "GET /api/inbox",
    ]);
    expect(calls[1]?.body).toEqual({ assignee: "bob" });
    expect(calls[2]?.body).toEqual({ until: "2026-01-05T10:00:00.000Z" });
  });

  it("throws the server's code on a refusal, and invalid_response on a malformed answer", async () => {
    const { fetcher } = createRecordingFetch(({ url }) =>
      url.includes("assign")
        ? { status: 409, body: { code: "already_answered", message: "decided" } }
        : { status: 200, body: { items: [{ itemId: 1 }], nextCursor: null, openCount: 0 } },
    );
    const api = createInboxApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(api.assignInboxItem("pause:run_1", null)).rejects.toMatchObject({
      code: "already_answered",
      status: 409,
    });
    await expect(api.listInbox()).rejects.toMatchObject({ code: "invalid_response" });
  });
});
