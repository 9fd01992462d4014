import type { LlmChunk } from "../llm-client.js";

/**
 * The abort plumbing of one LLM request attempt: one controller aborted by the caller's signal, by a
 * timer that each received chunk re-arms (so the timeout bounds silence, not length), or by an error
 * thrown from the caller's `onChunk` (kept, to be rethrown as is).
 */
export class AttemptControl {
  readonly controller = new AbortController();
  timedOut = false;
  callbackFailed = false;
  callbackError: unknown;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #timeoutMs: number;
  readonly #outer: AbortSignal | undefined;
  readonly #onOuterAbort = (): void => this.controller.abort();

  constructor(options: { timeoutMs: number; signal?: AbortSignal | undefined }) {
    this.#timeoutMs = options.timeoutMs;
    this.#outer = options.signal;
    this.#outer?.addEventListener("abort", this.#onOuterAbort, { once: true });
    this.arm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the caller's own signal aborted (a cancellation, not a timeout). */
  get cancelled(): boolean {
    return this.#outer?.aborted === true;
  }

  /** Restarts the timeout: called when the request starts and on every chunk. */
  arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.#timeoutMs);
  }

  /** `onChunk` wrapped so that a throwing callback stops the request instead of being misread as a fault. */
  forward(onChunk: ((chunk: LlmChunk) => void) | undefined): ((chunk: LlmChunk) => void) | undefined {
    if (onChunk === undefined) return undefined;
    return (chunk) => {
      try {
        onChunk(chunk);
      } catch (error) {
        if (!this.callbackFailed) {
          this.callbackFailed = true;
          this.callbackError = error;
        }
        this.controller.abort();
      }
    };
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#outer?.removeEventListener("abort", this.#onOuterAbort);
  }
}
