import { redactText } from "../util/create-preview.js";

/**
 * Redacts secrets from text that arrives in pieces: the end of a piece that could be the start of a
 * secret is held back until the next piece shows whether it is, so a secret split across chunks is still
 * caught. `flush()` releases what is held when the stream ends.
 */
export class StreamRedactor {
  private held = "";

  constructor(private readonly secrets: ReadonlySet<string>) {}

  push(piece: string): string {
    if (this.secrets.size === 0) return piece;
    const text = redactText(this.held + piece, this.secrets);
    const keep = this.heldLength(text);
    this.held = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  flush(): string {
    const rest = this.secrets.size === 0 ? this.held : redactText(this.held, this.secrets);
    this.held = "";
    return rest;
  }

  /** Length of the longest end of `text` that is a proper beginning of some secret. */
  private heldLength(text: string): number {
    let longest = 0;
    for (const secret of this.secrets) {
      for (let length = Math.min(secret.length - 1, text.length); length > longest; length -= 1) {
        if (text.endsWith(secret.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}
