const MIN_SECRET_LENGTH = 6;

/**
 * Replaces known secret values (WADDLE_SECRET_*, the API token, LLM keys, long toolContext strings) with
 * `[redacted]` wherever they would otherwise leave the process: events, tool observations, error messages.
 */
export class SecretRedactor {
  private readonly secrets: string[];
  /** The secrets as they appear inside JSON strings: what `redact` looks for in every event. */
  private readonly escaped: string[];

  constructor(values: Iterable<string>) {
    // Longest first, so that a secret containing another is replaced whole.
    this.secrets = [...new Set([...values].filter((value) => value.length >= MIN_SECRET_LENGTH))].sort(
      (a, b) => b.length - a.length,
    );
    this.escaped = this.secrets.map(jsonEscaped);
  }

  /** A redactor that also knows these values (e.g. a run's toolContext strings). */
  with(values: Iterable<string>): SecretRedactor {
    return new SecretRedactor([...this.secrets, ...values]);
  }

  get isEmpty(): boolean {
    return this.secrets.length === 0;
  }

  /**
   * The length of the longest end of `text` that is the start of a known secret (0 when none): text that a
   * stream must hold back until the next piece shows whether a secret follows.
   */
  getPartialSecretLength(text: string): number {
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

  redactText(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join("[redacted]");
    return out;
  }

  /** A copy of a JSON value with every secret replaced; the value itself when it holds none. */
  redact<T>(value: T): T {
    if (this.secrets.length === 0) return value;
    const text = JSON.stringify(value);
    if (text === undefined || !this.escaped.some((secret) => text.includes(secret))) return value;
    return this.redactDeep(value) as T;
  }

  private redactDeep(value: unknown): unknown {
    if (typeof value === "string") return this.redactText(value);
    if (Array.isArray(value)) return value.map((item) => this.redactDeep(item));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[this.redactText(key)] = this.redactDeep(item);
      return out;
    }
    return value;
  }
}

function jsonEscaped(secret: string): string {
  return JSON.stringify(secret).slice(1, -1);
}

/** String values of a toolContext (nested too), which the run's events must never show. */
export function getContextSecrets(toolContext: Readonly<Record<string, unknown>> | undefined): string[] {
  const out: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 5) return;
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) value.forEach((item) => visit(item, depth + 1));
    else if (value !== null && typeof value === "object")
      Object.values(value).forEach((item) => visit(item, depth + 1));
  };
  visit(toolContext ?? {}, 0);
  return out;
}
