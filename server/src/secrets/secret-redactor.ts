import { getPartialSecretLength, redactText, type TextRedactor } from "@waddle/planner";

/** Shorter values would redact ordinary text (the planner hides those only where a whole string equals them). */
const MIN_SECRET_LENGTH = 6;

/**
 * Replaces known secret values (WADDLE_SECRET_*, the API token, LLM keys, long toolContext strings) with
 * `[redacted]` wherever they would otherwise leave the process: events, tool observations, error messages.
 * Text is redacted as the planner does it (`redactText`), so a `StreamRedactor` can take this redactor.
 */
export class SecretRedactor implements TextRedactor {
  /** The values this redactor was made with (a child's own; the parent's come from the parent). */
  private readonly own: readonly string[];
  /** Values that change while the server runs: credentials stored from the browser. */
  private stored: readonly string[] = [];
  private version = 0;
  private built: { version: number; parentVersion: number } | undefined;
  /** Longest first (a set keeps the order), so that a secret containing another is replaced whole. */
  private current: ReadonlySet<string> = new Set();
  /** The secrets as they appear inside JSON strings: what `redact` looks for in every event. */
  private currentEscaped: string[] = [];

  constructor(
    values: Iterable<string>,
    private readonly parent?: SecretRedactor,
  ) {
    this.own = [...values];
  }

  /** A redactor that also knows these values (e.g. a run's toolContext strings), and follows this one's changes. */
  with(values: Iterable<string>): SecretRedactor {
    return new SecretRedactor(values, this);
  }

  /** Replaces the stored credentials' values; every redactor made from this one (`with`) knows them at once. */
  setStoredSecrets(values: Iterable<string>): void {
    this.stored = [...values];
    this.version += 1;
  }

  private get secrets(): ReadonlySet<string> {
    this.refresh();
    return this.current;
  }

  private get escaped(): string[] {
    this.refresh();
    return this.currentEscaped;
  }

  private getVersion(): number {
    return this.version + (this.parent?.getVersion() ?? 0);
  }

  private refresh(): void {
    const parentVersion = this.parent?.getVersion() ?? 0;
    if (this.built?.version === this.version && this.built.parentVersion === parentVersion) return;
    const values = [...(this.parent ? this.parent.secrets : []), ...this.own, ...this.stored];
    const secrets = [...new Set(values.filter((value) => value.length >= MIN_SECRET_LENGTH))];
    this.current = new Set(secrets.sort((a, b) => b.length - a.length));
    this.currentEscaped = secrets.map(jsonEscaped);
    this.built = { version: this.version, parentVersion };
  }

  get isEmpty(): boolean {
    return this.secrets.size === 0;
  }

  /** The length of the longest end of `text` that could start a known secret (see the planner's). */
  getPartialSecretLength(text: string): number {
    return getPartialSecretLength(text, this.secrets);
  }

  redactText(text: string): string {
    return redactText(text, this.secrets);
  }

  /** A copy of a JSON value with every secret replaced; the value itself when it holds none. */
  redact<T>(value: T): T {
    if (this.secrets.size === 0) return value;
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
