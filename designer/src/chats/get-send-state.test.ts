import { describe, expect, it } from "vitest";
import { getSendState } from "./get-send-state.js";

const base = { agentId: "a", closed: false, lastTurn: null, sending: false, loading: false, query: "hello" };
type Input = Parameters<typeof getSendState>[0];

describe("getSendState", () => {
  it("sends a typed message in a new chat or after an ended turn", () => {
    expect(getSendState(base)).toEqual({ ok: true });
    expect(getSendState({ ...base, lastTurn: { turn: 1, status: "finished" } })).toEqual({ ok: true });
    expect(getSendState({ ...base, lastTurn: { turn: 3, status: "failed" } })).toEqual({ ok: true });
  });

  it("says why not while a turn runs or waits, while the page sends, and on a closed chat", () => {
    const block = (input: Partial<Input>) => {
      const state = getSendState({ ...base, ...input });
      return state.ok ? null : [state.block, state.reason];
    };
    expect(block({ lastTurn: { turn: 2, status: "running" } })).toEqual([
      "running",
      "Turn 2 is running: wait for its answer.",
    ]);
    expect(block({ lastTurn: { turn: 1, status: "queued" } })?.[0]).toBe("running");
    expect(block({ lastTurn: { turn: 1, status: "paused" } })).toEqual([
      "paused",
      "Turn 1 waits for your decision above.",
    ]);
    expect(block({ closed: true, lastTurn: { turn: 1, status: "finished" } })?.[0]).toBe("closed");
    expect(block({ sending: true })?.[0]).toBe("sending");
    expect(block({ loading: true })?.[0]).toBe("loading");
    expect(block({ agentId: null })?.[0]).toBe("no-agent");
    expect(block({ query: "  \n " })?.[0]).toBe("empty");
  });
});
