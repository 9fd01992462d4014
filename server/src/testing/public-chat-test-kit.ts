import { AgentSpec, PublicStreamEvent, type PublicChat, type PublicChatSettings } from "@waddle/protocol";
import type { TestServer } from "./start-test-server.js";

/** An agent the offline model runs: it calls its tools in order, then answers from what they said. */
export function createTestAgent(id: string, tools: Record<string, unknown>[]): AgentSpec {
  return AgentSpec.parse({ version: 1, id, name: id, tools });
}

/** A tool whose args default to a value a visitor must never see unless `showSteps` is `full`. */
export function createLookupTool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    desc: `${name} for the visitor`,
    argsSchema: {
      type: "object",
      properties: { account: { type: "string", default: "acct-SECRET-4242" } },
      required: ["account"],
    },
    impl: { kind: "mock", output: { status: "shipped" } },
    ...extra,
  };
}

/** Makes the agent (through the API) and its public chat; answers the chat as PUT returns it. */
export async function publishAgent(options: {
  server: TestServer;
  headers: Record<string, string>;
  spec: AgentSpec;
  settings?: Partial<PublicChatSettings>;
}): Promise<PublicChat> {
  const { server, headers, spec } = options;
  const created = await server.request("/api/agents", { method: "POST", headers, json: spec });
  if (created.status !== 201) throw new Error(`agent ${spec.id}: ${created.status} ${created.text}`);
  const put = await server.request(`/api/agents/${spec.id}/public`, {
    method: "PUT",
    headers,
    json: { enabled: true, title: spec.name, allowedOrigins: [], showSteps: "names", ...options.settings },
  });
  if (put.status !== 200) throw new Error(`public chat of ${spec.id}: ${put.status} ${put.text}`);
  return put.body as PublicChat;
}

/** A visitor of one chat: its key, and their token once they have one. */
export class TestVisitor {
  token: string | undefined;

  constructor(
    private readonly server: TestServer,
    private readonly chat: Pick<PublicChat, "publicId" | "publishableKey">,
    token?: string,
  ) {
    this.token = token;
  }

  get headers(): Record<string, string> {
    return {
      "x-waddle-public-key": this.chat.publishableKey,
      ...(this.token === undefined ? {} : { authorization: `Bearer ${this.token}` }),
    };
  }

  request(path: string, init: Parameters<TestServer["request"]>[1] = {}) {
    return this.server.request(`/public/${this.chat.publicId}${path}`, {
      ...init,
      headers: { ...this.headers, ...(init.headers as Record<string, string> | undefined) },
    });
  }

  /** A new conversation: keeps the token it answers. */
  async startSession(): Promise<string> {
    const created = await this.request("/sessions", { method: "POST" });
    if (created.status !== 201) throw new Error(`POST sessions: ${created.status} ${created.text}`);
    this.token = created.body.visitorToken as string;
    return created.body.sessionId as string;
  }

  /** Opens a turn's stream (`POST …/turns`) or follows one (`GET …/stream`). */
  async stream(path: string, query?: string): Promise<SseReader> {
    const response = await fetch(`${this.server.url}/public/${this.chat.publicId}${path}`, {
      method: query === undefined ? "GET" : "POST",
      headers: { ...this.headers, ...(query === undefined ? {} : { "content-type": "application/json" }) },
      ...(query === undefined ? {} : { body: JSON.stringify({ query }) }),
    });
    if (response.status !== 200 || !response.body) {
      throw new Error(`${path}: ${response.status} ${await response.text()}`);
    }
    return new SseReader(response);
  }
}

/** Reads server-sent events as the page does; each is checked against `PublicStreamEvent`. */
export class SseReader {
  /** Everything received, comments included: nothing a visitor must not see may be in it. */
  raw = "";
  private buffer = "";
  private readonly queue: PublicStreamEvent[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(readonly response: Response) {
    this.reader = response.body!.getReader();
  }

  /** The next event; undefined once the stream ended. */
  async next(): Promise<PublicStreamEvent | undefined> {
    for (;;) {
      const queued = this.queue.shift();
      if (queued) return queued;
      const { value, done } = await this.reader.read();
      if (done) return undefined;
      const text = this.decoder.decode(value, { stream: true });
      this.raw += text;
      this.buffer += text;
      let end: number;
      while ((end = this.buffer.indexOf("\n\n")) >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const lines = block.split("\n").filter((line) => !line.startsWith(":"));
        if (lines.length === 0) continue;
        const name = lines.find((line) => line.startsWith("event: "))?.slice(7);
        const data = lines.find((line) => line.startsWith("data: "))?.slice(6);
        const event = PublicStreamEvent.parse(JSON.parse(data ?? "null"));
        if (event.type !== name) throw new Error(`event: ${name} carries a ${event.type}`);
        this.queue.push(event);
      }
    }
  }

  /** Events up to and including the first of `type`; throws when the stream ends before it. */
  async until(type: PublicStreamEvent["type"]): Promise<PublicStreamEvent[]> {
    const seen: PublicStreamEvent[] = [];
    for (;;) {
      const event = await this.next();
      if (!event) throw new Error(`the stream ended before ${type}: ${JSON.stringify(seen)}`);
      seen.push(event);
      if (event.type === type) return seen;
    }
  }

  /** Stops reading (the visitor closes the page). */
  async close(): Promise<void> {
    await this.reader.cancel();
  }
}
