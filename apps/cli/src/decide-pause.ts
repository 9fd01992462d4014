import type { CliIo } from "./cli-io.js";
import { previewValue } from "./event-printer.js";
import { toTerminalValue } from "./terminal-text.js";

export interface PauseDecision {
  decision: "approve" | "reject";
  userInput?: string;
}

/**
 * What to answer a paused run: the `--approve` / `--reject` flag, else a question on the terminal;
 * undefined when neither can decide (the command then stops and says how to answer).
 */
export async function decidePause(options: {
  reason: string;
  payload: Record<string, unknown>;
  flag?: "approve" | "reject";
  io: CliIo;
}): Promise<PauseDecision | undefined> {
  if (options.flag) return { decision: options.flag };
  const { prompt } = options.io;
  if (!prompt) return undefined;
  // Ctrl-C at the question (readline's AbortError) is no answer: the caller says how to answer later.
  const ask = async (question: string): Promise<string | undefined> => {
    try {
      return await prompt(question);
    } catch (error) {
      if ((error as Error).name === "AbortError") return undefined;
      throw error;
    }
  };
  // The model chose these args: shown on the terminal, they must not carry control sequences.
  const payload = toTerminalValue(options.payload);
  if (options.reason === "await_input") {
    const answer = await ask(`The run asks for input (${previewValue(payload, 200)}): `);
    return answer === undefined ? undefined : { decision: "approve", userInput: answer };
  }
  const tool = typeof payload.tool === "string" ? payload.tool : "the next step";
  for (;;) {
    const answer = (await ask(`Approve ${tool} ${previewValue(payload.args ?? payload, 160)}? [y/n] `))
      ?.trim()
      .toLowerCase();
    if (answer === undefined) return undefined;
    if (answer === "y" || answer === "yes") return { decision: "approve" };
    if (answer === "n" || answer === "no") return { decision: "reject" };
  }
}
