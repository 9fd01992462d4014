import type {
  PublicChatConfig,
  PublicFeedbackRequest,
  PublicSessionCreated,
  PublicStreamEvent,
  PublicTranscript,
} from "@waddle/protocol";
import {
  parseJsonText,
  readConfig,
  readSessionCreated,
  readStreamEvent,
  readTranscript,
} from "./read-public-chat.js";
import { readSseStream } from "./read-sse.js";

/** A public route's refusal: the HTTP status, the server's `code` and message, and `Retry-After` (s). */
export class ChatApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryAfterS: number | null;

  constructor(options: { status: number; code: string; message: string; retryAfterS?: number | null }) {
    super(options.message);
    this.name = "ChatApiError";
    this.status = options.status;
    this.code = options.code;
    this.retryAfterS = options.retryAfterS ?? null;
  }
}

/** `Retry-After` in whole seconds from now: a number of seconds or an HTTP date; null when absent. */
export function getRetryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

async function toError(response: Response): Promise<ChatApiError> {
  const body = parseJsonText(await response.text().catch(() => "")) as
    { code?: unknown; message?: unknown } | undefined;
  return new ChatApiError({
    status: response.status,
    code: typeof body?.code === "string" ? body.code : `http_${response.status}`,
    message: typeof body?.message === "string" ? body.message : response.statusText,
    retryAfterS: getRetryAfterSeconds(response.headers.get("retry-after")),
  });
}

const unreadable = (what: string) =>
  new ChatApiError({ status: 0, code: "bad_answer", message: `The server's ${what} could not be read.` });

export interface ChatApiOptions {
  publicId: string;
  /** The publishable key (`wpk_…`). */
  publicKey: string;
  /** The Waddle server's origin; the page's own when empty. */
  baseUrl?: string;
  fetch?: typeof fetch;
}

/** The public routes under `/public/:publicId/`, as the hosted page calls them. */
export function createChatApi(options: ChatApiOptions) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const root = `${options.baseUrl ?? ""}/public/${encodeURIComponent(options.publicId)}`;

  const request = async (
    path: string,
    init: { method?: string; token?: string; body?: unknown; stream?: boolean; signal?: AbortSignal },
  ): Promise<Response> => {
    const headers: Record<string, string> = { "x-waddle-public-key": options.publicKey };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers["content-type"] = "application/json";
    headers.accept = init.stream ? "text/event-stream" : "application/json";
    const response = await doFetch(`${root}${path}`, {
      method: init.method ?? "GET",
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    if (!response.ok) throw await toError(response);
    return response;
  };

  const readJson = async <T>(response: Response, read: (value: unknown) => T | null, what: string) => {
    const value = read(parseJsonText(await response.text()));
    if (value === null) throw unreadable(what);
    return value;
  };

  /** Reads a turn's event stream to its end; resolves with whether it saw `done`. */
  const stream = async (response: Response, onEvent: (event: PublicStreamEvent) => void) => {
    if (!response.body) throw unreadable("stream");
    let done = false;
    await readSseStream(response.body, (message) => {
      const event = readStreamEvent(message.event, message.data);
      if (event === null) return; // an event this page does not know: newer servers may add some
      if (event.type === "done") done = true;
      onEvent(event);
    });
    return done;
  };

  return {
    async getConfig(): Promise<PublicChatConfig> {
      return readJson(await request("/config", {}), readConfig, "chat settings");
    },
    /** A new conversation; a returning visitor sends their token and stays the same visitor. */
    async createSession(token: string | undefined): Promise<PublicSessionCreated> {
      const response = await request("/sessions", { method: "POST", body: {}, ...(token ? { token } : {}) });
      return readJson(response, readSessionCreated, "new conversation");
    },
    async getTranscript(sessionId: string, token: string): Promise<PublicTranscript> {
      const response = await request(`/sessions/${encodeURIComponent(sessionId)}`, { token });
      return readJson(response, readTranscript, "conversation");
    },
    /** Sends a message and streams the answer's events; true when the stream told the turn's end. */
    async sendTurn(input: {
      sessionId: string;
      token: string;
      query: string;
      onEvent: (event: PublicStreamEvent) => void;
      signal?: AbortSignal;
    }): Promise<boolean> {
      const response = await request(`/sessions/${encodeURIComponent(input.sessionId)}/turns`, {
        method: "POST",
        token: input.token,
        body: { query: input.query },
        stream: true,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      return stream(response, input.onEvent);
    },
    /** Follows the conversation's running turn (after a reload, or a dropped connection). */
    async followTurn(input: {
      sessionId: string;
      token: string;
      onEvent: (event: PublicStreamEvent) => void;
      signal?: AbortSignal;
    }): Promise<boolean> {
      const response = await request(`/sessions/${encodeURIComponent(input.sessionId)}/stream`, {
        token: input.token,
        stream: true,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      return stream(response, input.onEvent);
    },
    async sendFeedback(sessionId: string, token: string, body: PublicFeedbackRequest): Promise<void> {
      await request(`/sessions/${encodeURIComponent(sessionId)}/feedback`, { method: "POST", token, body });
    },
  };
}

export type ChatApi = ReturnType<typeof createChatApi>;
