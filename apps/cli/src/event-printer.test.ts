import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { EventPrinter, previewValue } from "./event-printer.js";

const base = { runId: "run_x", ts: 0 };
const events: RunEvent[] = [
  {
    ...base,
    seq: 1,
    step: 0,
    type: "run_started",
    data: {
      query: "q",
      agentId: "demo",
      agentVersion: 2,
      llm: { provider: "offline", model: "offline", offline: true },
      tools: ["search"],
    },
  },
  {
    ...base,
    seq: 2,
    step: 1,
    type: "action",
    data: { next_node: "search", args: { q: "cats" }, source: "llm", action_seq: 0 },
  },
  {
    ...base,
    seq: 3,
    step: 1,
    type: "tool_start",
    data: { tool: "search", callId: "c1", args: { q: "cats" }, attempt: 1 },
  },
  {
    ...base,
    seq: 4,
    step: 1,
    type: "tool_end",
    data: { tool: "search", callId: "c1", observation: { hits: 3 }, durationMs: 12.4 },
  },
  {
    ...base,
    seq: 5,
    step: 2,
    type: "llm_stream_chunk",
    data: { text: "Cats ", done: false, phase: "answer", channel: "answer", action_seq: 1 },
  },
  {
    ...base,
    seq: 6,
    step: 2,
    type: "llm_stream_chunk",
    data: { text: "purr.", done: false, phase: "answer", channel: "answer", action_seq: 1 },
  },
  {
    ...base,
    seq: 7,
    step: 2,
    type: "run_finished",
    data: {
      reason: "answer_complete",
      payload: {
        answer: "Cats purr.",
        artifacts: {},
        sources: [],
        suggested_actions: [],
        requires_followup: false,
      },
      metadata: {
        steps: 2,
        llmCalls: 2,
        autoSeqSavedCalls: 0,
        durationMs: 1500,
        usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, costUsd: 0.0012, llmCalls: 2 },
      },
    },
  },
];

function print(isTty: boolean, stream: readonly RunEvent[] = events): string {
  let out = "";
  const printer = new EventPrinter({ write: (text) => void (out += text), isTty });
  for (const event of stream) printer.print(event);
  printer.finish();
  return out;
}

describe("EventPrinter", () => {
  it("prints readable lines and streams the answer inline", () => {
    expect(print(false)).toBe(
      [
        "▶ demo v2 · offline model · tools: search",
        '  → search {"q":"cats"}',
        '  ✓ search 12 ms → {"hits":3}',
        "Answer: Cats purr.",
        "■ answer_complete · 2 steps · 2 LLM calls · 1.5s · $0.0012",
        "",
      ].join("\n"),
    );
  });

  it("shows a streamed answer once, even when a line follows the stream", () => {
    const reflection: RunEvent = {
      ...base,
      seq: 7,
      step: 2,
      type: "reasoning",
      data: { phase: "reflect", summary: "Answering from the results." },
    };
    const finished = events.at(-1) as RunEvent;
    const out = print(false, [...events.slice(0, -1), reflection, { ...finished, seq: 8 }]);
    expect(out.match(/Answer: /g)).toHaveLength(1);
  });

  it("keeps a progress line on a terminal and clears it before each line", () => {
    const out = print(true);
    expect(out).toMatch(/\[step 1 · 3 events · \d+\.\ds · running search\]/);
    expect(out).toContain("\r\x1b[K");
    expect(out.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[mK]|\r`, "g"), "")).toContain(
      "Answer: Cats purr.",
    );
  });

  it("cuts long previews", () => {
    expect(previewValue("x".repeat(200), 10)).toBe(`${"x".repeat(9)}…`);
    expect(previewValue({ a: "b\n c" })).toBe('{"a":"b\\n c"}');
  });

  it("never passes a terminal control sequence from a run's text to the terminal", () => {
    const esc = String.fromCharCode(27);
    const hostile = `${esc}]52;c;cm0gLXJmIH4=${String.fromCharCode(7)}${esc}[2J`;
    const failed: RunEvent = {
      ...base,
      seq: 5,
      step: 1,
      type: "tool_error",
      data: {
        tool: "search",
        callId: "c1",
        attempt: 1,
        failure: { node: "search", args: {}, error_code: "http_error", message: `page said ${hostile}` },
      },
    } as unknown as RunEvent;
    const chunk = events[4] as Extract<RunEvent, { type: "llm_stream_chunk" }>;
    const stream = [
      ...events.slice(0, 4),
      failed,
      { ...chunk, seq: 6, data: { ...chunk.data, text: `Cats\n${hostile} purr.` } },
    ];
    for (const isTty of [false, true]) {
      const out = print(isTty, stream);
      // Only the printer's own colour and line-clearing codes may remain.
      const own = new RegExp(`${esc}\\[[0-9]*[mK]`, "g");
      expect(out.replace(own, "")).not.toContain(esc);
      expect(out).not.toContain(String.fromCharCode(7));
      expect(out).toContain("page said ␛]52;c;cm0gLXJmIH4=␇␛[2J");
      expect(out).toContain("Cats\n");
    }
  });
});
