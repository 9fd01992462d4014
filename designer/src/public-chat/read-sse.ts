/** One server-sent event: its `event:` name (`message` when absent) and its `data:` lines joined. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * An incremental parser of `text/event-stream` as the HTML standard reads it: pieces of text go in as they
 * arrive (a line or a message may be split anywhere, even between `\r` and `\n`), whole messages come out.
 * Comments (`: keep-alive`) and messages without data are skipped.
 */
export function createSseParser(): { push(text: string): SseMessage[]; end(): SseMessage[] } {
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let sawCarriageReturn = false;

  const takeLine = (line: string, out: SseMessage[]) => {
    if (line === "") {
      if (data.length > 0) out.push({ event: event || "message", data: data.join("\n") });
      event = "";
      data = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  };

  return {
    push(text) {
      const out: SseMessage[] = [];
      // A `\n` right after a `\r` that ended the previous piece belongs to that line ending.
      if (sawCarriageReturn && text.startsWith("\n")) text = text.slice(1);
      buffer += text;
      let start = 0;
      for (let index = 0; index < buffer.length; index += 1) {
        const char = buffer[index];
        if (char !== "\n" && char !== "\r") continue;
        takeLine(buffer.slice(start, index), out);
        if (char === "\r" && buffer[index + 1] === "\n") index += 1;
        start = index + 1;
      }
      sawCarriageReturn = buffer.endsWith("\r");
      buffer = buffer.slice(start);
      return out;
    },
    end() {
      // A stream that ends without the blank line after its last message: that message is incomplete.
      buffer = "";
      event = "";
      data = [];
      return [];
    },
  };
}

/**
 * Reads a response body of server-sent events to its end, handing each message to `onMessage` as soon as it
 * is whole. Resolves when the stream ends; rejects when the connection breaks or `signal` aborts.
 */
export async function readSseStream(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: SseMessage) => void,
): Promise<void> {
  const parser = createSseParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const message of parser.push(decoder.decode(value, { stream: true }))) onMessage(message);
    }
    for (const message of parser.push(decoder.decode())) onMessage(message);
    parser.end();
  } finally {
    reader.releaseLock();
  }
}
