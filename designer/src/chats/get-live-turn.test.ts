import type { SessionTurn } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { getLiveTurnRunId } from "./get-live-turn.js";

const turn = (number: number, status: SessionTurn["status"]): SessionTurn => ({
  runId: `run_${number}`,
  turn: number,
  query: `q${number}`,
  status,
  answer: null,
});

describe("getLiveTurnRunId", () => {
  it("names the last turn while it runs, waits in the queue or waits for a person", () => {
    expect(getLiveTurnRunId({ turns: [turn(1, "finished"), turn(2, "running")] })).toBe("run_2");
    expect(getLiveTurnRunId({ turns: [turn(1, "paused")] })).toBe("run_1");
    expect(getLiveTurnRunId({ turns: [turn(1, "queued")] })).toBe("run_1");
  });

  it("names none once the last turn ended, or without a session", () => {
    expect(getLiveTurnRunId({ turns: [turn(1, "running"), turn(2, "finished")] })).toBeNull();
    expect(getLiveTurnRunId({ turns: [turn(1, "cancelled")] })).toBeNull();
    expect(getLiveTurnRunId({ turns: [] })).toBeNull();
    expect(getLiveTurnRunId(null)).toBeNull();
  });
});
