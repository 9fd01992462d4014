import type { ServerResponse } from "node:http";
import type { Event as AguiEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";

/**
 * An AG-UI event stream on an HTTP response, written by the official encoder in the format the request's
 * `Accept` asks for: server-sent events (`text/event-stream`, the default), or AG-UI's length-prefixed
 * protobuf frames (`application/vnd.ag-ui.event+proto`). An SSE stream gets a comment every
 * `keepAliveMs` so that proxies keep a quiet stream (a long tool call, a wait for a person) open. Writes
 * after the client went away are dropped.
 */
export class AguiEventStream {
  private readonly encoder: EventEncoder;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private opened = false;

  constructor(
    private readonly response: ServerResponse,
    accept: string | undefined,
    private readonly keepAliveMs = 15_000,
  ) {
    this.encoder = new EventEncoder(accept === undefined ? {} : { accept });
  }

  get contentType(): string {
    return this.encoder.getContentType();
  }

  get isOpen(): boolean {
    return !this.response.destroyed && !this.response.writableEnded;
  }

  get isStarted(): boolean {
    return this.opened;
  }

  /** Sends the headers now: the client sees the run start before its first token. */
  open(headers: Record<string, string> = {}): void {
    if (this.opened) return;
    this.opened = true;
    this.response.writeHead(200, {
      "content-type": this.contentType,
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no",
      ...headers,
    });
    this.response.flushHeaders();
    if (this.contentType.startsWith("text/event-stream")) {
      this.keepAlive = setInterval(() => this.write(": keep-alive\n\n"), this.keepAliveMs);
      this.keepAlive.unref();
    }
    this.response.once("close", () => this.stopKeepAlive());
  }

  send(events: readonly AguiEvent[]): void {
    for (const event of events) this.write(this.encoder.encodeBinary(event));
  }

  end(): void {
    this.stopKeepAlive();
    if (this.isOpen) this.response.end();
  }

  private write(chunk: string | Uint8Array): void {
    if (this.isOpen) this.response.write(chunk);
  }

  private stopKeepAlive(): void {
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }
}
