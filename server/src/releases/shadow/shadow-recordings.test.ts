import type { CallRecord } from "@waddle/planner";
import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { getPartsAt } from "./compare-shadow-sides.js";
import { createShadowReplay, getRecordedToolCalls, type RecordedToolCall } from "./shadow-recordings.js";

let seq = 0;
const event = (step: number, type: string, data: Record<string, unknown>) =>
  ({ runId: "run_1", seq: (seq += 1), ts: seq, step, type, data }) as unknown as RunEvent;
const query = (tool: string, args: Record<string, unknown>) => ({ tool, sideEffects: "pure" as const, args });

describe("getRecordedToolCalls", () => {
  it("reads each call once (retries included) with full args from the call record, failures from events", () => {
    const long = "x".repeat(5_000);
    const events = [
      event(0, "tool_start", {
        tool: "search",
        callId: "step-0",
        args: { q: "x…[+4990 chars]" },
        attempt: 1,
      }),
      event(0, "tool_end", { tool: "search", callId: "step-0", observation: { hits: "…" }, durationMs: 1 }),
      event(1, "tool_start", { tool: "charge", callId: "step-1", args: { amount: 5 }, attempt: 1 }),
      event(1, "tool_start", { tool: "charge", callId: "step-1", args: { amount: 5 }, attempt: 2 }),
      event(1, "tool_error", {
        tool: "charge",
        callId: "step-1",
        durationMs: 1,
        failure: { node: "charge", args: { amount: 5 }, error_code: "timeout", message: "Too slow." },
      }),
    ];
    const records: CallRecord[] = [
      {
        kind: "tool",
        step: 0,
        tool: "search",
        sideEffects: "read",
        args: { q: long },
        observation: { hits: 3 },
      },
    ];
    expect(getRecordedToolCalls(events, records)).toEqual([
      { tool: "search", args: { q: long }, outcome: { observation: { hits: 3 } } },
      {
        tool: "charge",
        args: { amount: 5 },
        outcome: { failure: { code: "timeout", message: "Too slow." } },
      },
    ]);
  });
});

describe("createShadowReplay", () => {
  const recorded: RecordedToolCall[] = [
    { tool: "lookup", args: { id: 1, opts: { a: 1, b: 2 } }, outcome: { observation: { n: "first" } } },
    { tool: "lookup", args: { id: 1, opts: { b: 2, a: 1 } }, outcome: { observation: { n: "second" } } },
    { tool: "send", args: { to: "x" }, outcome: { failure: { code: "rejected", message: "No." } } },
  ];

  it("serves equal calls (key order ignored) in recorded order, then the last again; refuses any other", () => {
    const { replay, path } = createShadowReplay(recorded);
    const ask = (tool: string, args: Record<string, unknown>) => replay.tool!(query(tool, args));
    expect(ask("lookup", { opts: { b: 2, a: 1 }, id: 1 })).toEqual({ observation: { n: "first" } });
    expect(ask("lookup", { id: 1, opts: { a: 1, b: 2 } })).toEqual({ observation: { n: "second" } });
    expect(ask("lookup", { id: 1, opts: { a: 1, b: 2 } })).toEqual({ observation: { n: "second" } });
    expect(ask("send", { to: "x" })).toEqual({ refused: { code: "rejected", message: "No." } });
    expect(ask("lookup", { id: 2 })).toMatchObject({ refused: { code: "not_recorded" } });
    expect(ask("other", {})).toMatchObject({ refused: { code: "not_recorded" } });
    expect(path.map((call) => [call.tool, call.notRecorded === true])).toEqual([
      ["lookup", false],
      ["lookup", false],
      ["lookup", false],
      ["send", false],
      ["lookup", true],
      ["other", true],
    ]);
  });

  it("serves copies: a candidate that changes an observation does not change the recording", () => {
    const { replay } = createShadowReplay([recorded[0]!]);
    const served = replay.tool!(query("lookup", recorded[0]!.args as Record<string, unknown>)) as {
      observation: { n: string };
    };
    served.observation.n = "changed";
    expect(replay.tool!(query("lookup", recorded[0]!.args as Record<string, unknown>))).toEqual({
      observation: { n: "first" },
    });
  });
});

describe("getPartsAt", () => {
  const call = (tool: string, args: unknown = {}) => ({ tool, args });
  it("is the first index where tool or args differ, the shorter length when one path goes on, else null", () => {
    expect(getPartsAt([call("a", { x: 1, y: 2 })], [call("a", { y: 2, x: 1 })])).toBeNull();
    expect(getPartsAt([], [])).toBeNull();
    expect(getPartsAt([call("a"), call("b")], [call("a"), call("c")])).toBe(1);
    expect(getPartsAt([call("a", { x: 1 })], [call("a", { x: 2 })])).toBe(0);
    expect(getPartsAt([call("a")], [call("a"), call("b")])).toBe(1);
  });
});
