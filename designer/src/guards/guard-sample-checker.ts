import type { GuardCheck, GuardSampleResult } from "@waddle/protocol";
import { getErrorMessage } from "../api/api-error.js";
import type { GuardsApi } from "../api/guards-api.js";

/** The sample box's state: nothing typed, a check on its way (the last result still shown), done or refused. */
export interface GuardSampleState {
  status: "idle" | "checking" | "done" | "failed";
  result: GuardSampleResult | null;
  error: string | null;
}

export const IDLE_SAMPLE: GuardSampleState = Object.freeze({ status: "idle", result: null, error: null });

export interface GuardSampleInput {
  check: GuardCheck;
  text: string;
  agentId?: string | undefined;
}

/** Starts a timer, returning its cancel (a test passes one it fires by hand). */
export type SetTimer = (run: () => void, delayMs: number) => () => void;

const setBrowserTimer: SetTimer = (run, delayMs) => {
  const id = setTimeout(run, delayMs);
  return () => clearTimeout(id);
};

export interface GuardSampleChecker {
  /** The text or the check changed: check again once typing pauses (an empty text clears the result). */
  request(input: GuardSampleInput): void;
  /** Stops: no timer left, and answers still on their way are dropped. */
  dispose(): void;
}

/**
 * Runs a guard's check on the sample box's text over `POST /api/guards/check`, debounced (`delayMs` after
 * the last change), and hands each state to `onChange`. Only the latest request's answer is shown: one
 * that arrives after a newer request started is dropped, so a slow answer never overwrites a newer one.
 */
export function createGuardSampleChecker(options: {
  api: Pick<GuardsApi, "checkGuardSample">;
  onChange: (state: GuardSampleState) => void;
  delayMs?: number;
  setTimer?: SetTimer;
}): GuardSampleChecker {
  const { api, onChange } = options;
  const setTimer = options.setTimer ?? setBrowserTimer;
  let state: GuardSampleState = IDLE_SAMPLE;
  let cancelTimer: (() => void) | null = null;
  let generation = 0;
  let disposed = false;
  const set = (next: GuardSampleState) => {
    state = next;
    if (!disposed) onChange(next);
  };
  const run = async (input: GuardSampleInput, mine: number) => {
    try {
      const result = await api.checkGuardSample({
        check: input.check,
        text: input.text,
        ...(input.agentId ? { agentId: input.agentId } : {}),
      });
      if (mine === generation) set({ status: "done", result, error: null });
    } catch (error) {
      if (mine === generation) set({ status: "failed", result: null, error: getErrorMessage(error) });
    }
  };
  return {
    request(input) {
      cancelTimer?.();
      cancelTimer = null;
      generation += 1;
      if (input.text === "") return set(IDLE_SAMPLE);
      const mine = generation;
      set({ status: "checking", result: state.result, error: null });
      cancelTimer = setTimer(() => {
        cancelTimer = null;
        void run(input, mine);
      }, options.delayMs ?? 300);
    },
    dispose() {
      disposed = true;
      generation += 1;
      cancelTimer?.();
      cancelTimer = null;
    },
  };
}
