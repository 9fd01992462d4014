/** Where a command reads and writes; tests pass buffers, `main` passes the process. */
export interface CliIo {
  stdout: { write(text: string): void; isTTY?: boolean };
  stderr: { write(text: string): void };
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Asks a question on a terminal; undefined when there is none (then flags must decide). */
  prompt?: (question: string) => Promise<string>;
}

/** A usage mistake: printed with the usage text, exit code 2. */
export class UsageError extends Error {
  readonly code = "usage" as const;
}
