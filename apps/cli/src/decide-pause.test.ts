import { describe, expect, it } from "vitest";
import type { CliIo } from "./cli-io.js";
import { decidePause } from "./decide-pause.js";

describe("decidePause", () => {
  it("asks about the model's args without passing control sequences to the terminal", async () => {
    const questions: string[] = [];
    const io: CliIo = {
      stdout: { write: () => undefined },
      stderr: { write: () => undefined },
      env: {},
      cwd: "/",
      prompt: async (question) => (questions.push(question), "n"),
    };
    const esc = String.fromCharCode(27);
    const decision = await decidePause({
      reason: "approval_required",
      payload: { tool: `send${esc}[2J`, args: { body: `hi\u009b2J` } },
      io,
    });
    expect(decision).toEqual({ decision: "reject" });
    expect(questions[0]).toBe('Approve send␛[2J {"body":"hi\ufffd2J"}? [y/n] ');
  });

  it("takes Ctrl-C at the question as no answer, so the caller says how to answer later", async () => {
    const io: CliIo = {
      stdout: { write: () => undefined },
      stderr: { write: () => undefined },
      env: {},
      cwd: "/",
      // What node:readline/promises does on Ctrl-C.
      prompt: async () => {
        throw Object.assign(new Error("Aborted with Ctrl+C"), { name: "AbortError", code: "ABORT_ERR" });
      },
    };
    const payload = { tool: "send_email", args: {} };
    expect(await decidePause({ reason: "approval_required", payload, io })).toBeUndefined();
  });
});
