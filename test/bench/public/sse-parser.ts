/** One server-sent event: its `event:` name and `data:` text (comments and blank blocks dropped). */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Splits a server-sent event stream into messages as text arrives, however it is cut into chunks: a
 * message ends at a blank line, `:` lines are comments (keep-alives), and several `data:` lines join with
 * a newline, as browsers do.
 */
export class SseParser {
  private buffer = "";

  /** The messages completed by this piece of text. */
  push(text: string): SseMessage[] {
    this.buffer += text.replace(/\r\n?/g, "\n");
    const messages: SseMessage[] = [];
    let end: number;
    while ((end = this.buffer.indexOf("\n\n")) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line === "" || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
      if (data.length > 0) messages.push({ event, data: data.join("\n") });
    }
    return messages;
  }
}
