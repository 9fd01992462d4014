import { getPartialSecretLength, redactText } from "./redact-text.js";

/**
 * How a stream redacts text: the planner's is `createTextRedactor(secrets)`; a host with secrets of its own
 * (the server's `SecretRedactor`) passes its own.
 */
export interface TextRedactor {
  redactText(text: string): string;
  /** The length of the longest end of `text` that could start a secret (see `getPartialSecretLength`). */
  getPartialSecretLength(text: string): number;
}

/** The planner's redaction (`redactText`) of a run's secret strings, for a `StreamRedactor`. */
export function createTextRedactor(secrets: ReadonlySet<string>): TextRedactor {
  return {
    redactText: (text) => redactText(text, secrets),
    getPartialSecretLength: (text) => getPartialSecretLength(text, secrets),
  };
}

/**
 * Redacts secrets from text that arrives in pieces: the end of a piece that could be the start of a
 * secret is held back until the next piece shows whether it is, so a secret split across chunks is still
 * caught. `flush()` releases what is held when the stream ends. One per stream.
 */
export class StreamRedactor {
  private held = "";

  constructor(private readonly redactor: TextRedactor) {}

  push(piece: string): string {
    const text = this.redactor.redactText(this.held + piece);
    const keep = this.redactor.getPartialSecretLength(text);
    this.held = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  flush(): string {
    const rest = this.held.length === 0 ? "" : this.redactor.redactText(this.held);
    this.held = "";
    return rest;
  }
}
