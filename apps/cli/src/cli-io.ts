/** Where a command reads and writes; tests pass buffers, `main` passes the process. */
export interface CliIo {
  stdout: { write(text: string): void; isTTY?: boolean };
  stderr: { write(text: string): void };
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Asks a question on a terminal; undefined when there is none (then flags must decide). */
  prompt?: (question: string) => Promise<string>;
  /**
   * Calls `handler` on Ctrl-C (SIGINT) instead of ending the process at once; returns the function that
   * stops listening. Absent: Ctrl-C ends the process as usual.
   */
  onInterrupt?: (handler: () => void) => () => void;
}

/** A usage mistake: printed with the usage text, exit code 2. */
export class UsageError extends Error {
  readonly code = "usage" as const;
}
