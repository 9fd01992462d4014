import { PublicSessionCreated, PublicStreamEvent } from "@waddle/protocol";
import { SseParser } from "./sse-parser.js";

/** A published chat as a visitor's page reaches it. */
export interface PublicChatAddress {
  url: string;
  publicId: string;
  publishableKey: string;
}

/** What one visitor saw, in this process's `performance.now()` milliseconds. */
export interface VisitorSample {
  /** When `POST sessions` was sent. */
  startedAt: number;
  /** `POST sessions` → its 201. */
  sessionMs: number;
  /** When `POST …/turns` was sent. */
  turnSentAt: number;
  /** When each `delta` was read (several read from one chunk share a time). */
  deltaAt: number[];
  /** When `done` was read, or the visitor gave up. */
  endedAt: number;
  /** Why this visitor did not get a whole answer; null when they did. */
  error: string | null;
}

/** The error's message, with its cause's (fetch says only "fetch failed"; undici's cause says why). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (cause === undefined) return error.message;
  return `${error.message} (${[cause.code, cause.message].filter((part) => typeof part === "string").join(": ")})`;
}

/**
 * One anonymous visitor, as the hosted page does it: a new conversation (`POST sessions`), then one
 * message (`POST sessions/:id/turns`) whose answer is read as server-sent events to `done`. Every event
 * is checked against the protocol, and the deltas must add up to the final `answer`.
 */
export async function runVisitor(chat: PublicChatAddress, query: string): Promise<VisitorSample> {
  const base = `${chat.url}/public/${chat.publicId}`;
  const sample: VisitorSample = {
    startedAt: performance.now(),
    sessionMs: NaN,
    turnSentAt: NaN,
    deltaAt: [],
    endedAt: NaN,
    error: null,
  };
  try {
    const created = await fetch(`${base}/sessions`, {
      method: "POST",
      headers: { "x-waddle-public-key": chat.publishableKey },
    });
    if (created.status !== 201) throw new Error(`POST sessions: ${created.status} ${await created.text()}`);
    const session = PublicSessionCreated.parse(await created.json());
    sample.sessionMs = performance.now() - sample.startedAt;
    sample.turnSentAt = performance.now();
    const response = await fetch(`${base}/sessions/${session.sessionId}/turns`, {
      method: "POST",
      headers: {
        "x-waddle-public-key": chat.publishableKey,
        authorization: `Bearer ${session.visitorToken}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ query }),
    });
    if (response.status !== 200 || !response.body) {
      throw new Error(`POST turns: ${response.status} ${await response.text()}`);
    }
    await readAnswer(response.body, sample);
  } catch (error) {
    sample.error = describeError(error);
  }
  sample.endedAt = performance.now();
  return sample;
}

/** Reads a turn's stream to `done`, timing each delta; throws when the answer is not whole. */
async function readAnswer(body: ReadableStream<Uint8Array>, sample: VisitorSample): Promise<void> {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const texts: string[] = [];
  let answer: string | undefined;
  for await (const chunk of body) {
    const at = performance.now();
    for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
      const event = PublicStreamEvent.parse(JSON.parse(message.data));
      if (event.type !== message.event) throw new Error(`event: ${message.event} carries a ${event.type}`);
      if (event.type === "delta") {
        sample.deltaAt.push(at);
        texts.push(event.text);
      } else if (event.type === "answer") answer = event.answer;
      else if (event.type === "error") throw new Error(`error event: ${event.code} ${event.message}`);
      else if (event.type === "done") {
        if (event.status !== "finished") throw new Error(`done with status ${event.status}`);
        if (answer === undefined || texts.join("") !== answer) {
          throw new Error("the deltas do not add up to the answer");
        }
        return;
      }
    }
  }
  throw new Error("the stream ended before done");
}
