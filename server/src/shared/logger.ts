export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** One line per entry on stdout/stderr, `key=value` fields, secrets redacted; `silent` for tests. */
export function createLogger(
  options: { level?: LogLevel | "silent"; redactor?: { redactText(text: string): string } } = {},
): Logger {
  const threshold = options.level ?? "info";
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (threshold === "silent" || ORDER[level] < ORDER[threshold]) return;
    const rest = Object.entries(fields ?? {})
      .map(
        ([key, value]) =>
          `${key}=${typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value ?? null)}`,
      )
      .join(" ");
    const line = `${new Date().toISOString()} ${level.padEnd(5)} ${message}${rest ? ` ${rest}` : ""}`;
    const safe = options.redactor ? options.redactor.redactText(line) : line;
    (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${safe}\n`);
  };
  return {
    debug: (message, fields) => write("debug", message, fields),
    info: (message, fields) => write("info", message, fields),
    warn: (message, fields) => write("warn", message, fields),
    error: (message, fields) => write("error", message, fields),
  };
}
