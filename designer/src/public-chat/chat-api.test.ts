import { describe, expect, it } from "vitest";
import type { PublicStreamEvent } from "@waddle/protocol";
import { ChatApiError, createChatApi } from "./chat-api.js";

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A fetch that records what the client sent and answers with the given Responses in turn. */
function answering(...responses: Response[]) {
  const sent: Sent[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: init?.headers as Record<string, string>,
      body: init?.body as string | undefined,
    });
    const next = responses.shift();
    if (!next) throw new TypeError("Failed to fetch");
    return next;
  };
  return { sent, fetch: fetch as typeof globalThis.fetch };
}

const sse = (text: string, cut = 7) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        for (let start = 0; start < bytes.length; start += cut)
          controller.enqueue(bytes.slice(start, start + cut));
        controller.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );

const event = (value: PublicStreamEvent) => `event: ${value.type}\ndata: ${JSON.stringify(value)}\n\n`;

describe("createChatApi", () => {
  it("sends the publishable key on every request and the visitor token on the session's", async () => {
    const { sent, fetch } = answering(
      Response.json({ sessionId: "ses_1", visitorToken: "wpv_1" }, { status: 201 }),
      Response.json({ sessionId: "ses_1", turns: [], turnsLeft: null }),
      new Response(null, { status: 204 }),
    );
    const api = createChatApi({ publicId: "pub_1", publicKey: "wpk_1", fetch });
    expect(await api.createSession(undefined)).toEqual({ sessionId: "ses_1", visitorToken: "wpv_1" });
    await api.getTranscript("ses_1", "wpv_1");
    await api.sendFeedback("ses_1", "wpv_1", { runId: "run_1", rating: "down", comment: "wrong" });
    expect(sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      "POST /public/pub_1/sessions",
      "GET /public/pub_1/sessions/ses_1",
      "POST /public/pub_1/sessions/ses_1/feedback",
    ]);
    expect(sent.every((request) => request.headers["x-waddle-public-key"] === "wpk_1")).toBe(true);
    expect(sent[0]!.headers.authorization).toBeUndefined();
    expect(sent[1]!.headers.authorization).toBe("Bearer wpv_1");
    expect(JSON.parse(sent[2]!.body!)).toEqual({ runId: "run_1", rating: "down", comment: "wrong" });
  });

  it("streams a turn's events as they come, and tells whether the stream reached `done`", async () => {
    const events: PublicStreamEvent[] = [
      { type: "turn_started", runId: "run_1", turn: 1 },
      { type: "delta", text: "Hel" },
      { type: "delta", text: "lo" },
      { type: "answer", runId: "run_1", answer: "Hello" },
      { type: "done", status: "finished" },
    ];
    const { sent, fetch } = answering(
      sse(events.map(event).join("") + ": keep-alive\n\nevent: ping\ndata: {}\n\n"),
      sse(event(events[0]!) + event(events[1]!)),
    );
    const api = createChatApi({ publicId: "pub_1", publicKey: "wpk_1", fetch });
    const seen: PublicStreamEvent[] = [];
    const ended = await api.sendTurn({
      sessionId: "ses_1",
      token: "wpv_1",
      query: "Hi",
      onEvent: (e) => seen.push(e),
    });
    expect(ended).toBe(true);
    expect(seen).toEqual(events);
    expect(sent[0]!.headers.accept).toBe("text/event-stream");
    expect(JSON.parse(sent[0]!.body!)).toEqual({ query: "Hi" });
    // a stream cut before `done`
    const followed: PublicStreamEvent[] = [];
    expect(
      await api.followTurn({ sessionId: "ses_1", token: "wpv_1", onEvent: (e) => followed.push(e) }),
    ).toBe(false);
    expect(sent[1]!.url).toBe("/public/pub_1/sessions/ses_1/stream");
    expect(followed).toHaveLength(2);
  });

  it("turns a refusal into a ChatApiError with its code and Retry-After", async () => {
    const { fetch } = answering(
      Response.json(
        { code: "rate_limited", message: "Too many messages." },
        { status: 429, headers: { "retry-after": "21" } },
      ),
      Response.json({ code: "session_full", message: "Full." }, { status: 409 }),
      new Response("<html>proxy error</html>", { status: 502, statusText: "Bad Gateway" }),
      Response.json({ sessionId: 5 }),
    );
    const api = createChatApi({ publicId: "pub_1", publicKey: "wpk_1", fetch });
    const send = () =>
      api.sendTurn({ sessionId: "ses_1", token: "t", query: "Hi", onEvent: () => undefined });
    await expect(send()).rejects.toMatchObject({ status: 429, code: "rate_limited", retryAfterS: 21 });
    await expect(send()).rejects.toMatchObject({ status: 409, code: "session_full" });
    await expect(send()).rejects.toMatchObject({ status: 502, code: "http_502", message: "Bad Gateway" });
    const unreadable = api.createSession("t");
    await expect(unreadable).rejects.toBeInstanceOf(ChatApiError);
    await expect(unreadable).rejects.toMatchObject({ code: "bad_answer" });
  });
});
