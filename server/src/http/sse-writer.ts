import type { ServerResponse } from "node:http";

/**
 * Server-sent events as OpenAI streams them: `data: <json>` messages, `data: [DONE]` at the end, and a
 * comment every `keepAliveMs` so that proxies keep a quiet stream (a long tool call) open. Writes after
 * the client went away are dropped.
 */
export class SseWriter {
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly response: ServerResponse,
    private readonly keepAliveMs = 15_000,
  ) {}

  get isOpen(): boolean {
    return !this.response.destroyed && !this.response.writableEnded;
  }

  /** Sends the headers now: the client sees the stream start before the first token. */
  open(headers: Record<string, string> = {}): void {
    this.response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no",
      ...headers,
    });
    this.response.flushHeaders();
    this.keepAlive = setInterval(() => this.write(": keep-alive\n\n"), this.keepAliveMs);
    this.keepAlive.unref();
    this.response.once("close", () => this.stopKeepAlive());
  }

  send(data: unknown): void {
    this.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  /** A named event (`event: <name>`), as the Responses API streams them. */
  sendEvent(name: string, data: unknown): void {
    this.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** `data: [DONE]`, then the end of the response. */
  done(): void {
    this.write("data: [DONE]\n\n");
    this.end();
  }

  end(): void {
    this.stopKeepAlive();
    if (this.isOpen) this.response.end();
  }

  private write(text: string): void {
    if (this.isOpen) this.response.write(text);
  }

  private stopKeepAlive(): void {
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }
}
