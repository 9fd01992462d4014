import type { CliIo } from "../cli-io.js";

/** A `CliIo` that collects what a command prints, for tests; no terminal unless `prompt` is given. */
export function createTestIo(options: {
  cwd: string;
  env?: Record<string, string>;
  prompt?: (question: string) => Promise<string>;
}): { io: CliIo; stdout: () => string; stderr: () => string } {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text) },
    env: { ...options.env },
    cwd: options.cwd,
    ...(options.prompt ? { prompt: options.prompt } : {}),
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}
