import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { applyRunEvents, createRunView } from "./apply-run-event.js";

let seq = 0;
const event = <T extends RunEvent["type"]>(
  type: T,
  data: Extract<RunEvent, { type: T }>["data"],
  step = 0,
): RunEvent => ({ runId: "run-1", seq: (seq += 1), ts: 1_000 + seq, step, type, data }) as RunEvent;

const toolEnd = (step: number) => [
  event(
    "tool_start",
    { tool: "search_docs", callId: `step-${step}`, args: { q: "refund" }, attempt: 1 },
    step,
  ),
  event("tool_end", { tool: "search_docs", callId: `step-${step}`, observation: {}, durationMs: 5 }, step),
];

describe("a stuck run in the run view", () => {
  it("marks the tool stuck on the canvas and explains it in the timeline, and the mark stays", () => {
    const view = applyRunEvents(createRunView("run-1"), [
      ...toolEnd(0),
      ...toolEnd(1),
      ...toolEnd(2),
      event(
        "stuck_detected",
        {
          pattern: "repeat",
          tools: ["search_docs"],
          count: 3,
          action: "finish",
          message: "search_docs called 3 times with the same arguments",
        },
        2,
      ),
    ]);
    expect(view.nodes.search_docs).toMatchObject({
      state: "succeeded",
      stuck: { pattern: "repeat", count: 3, action: "finish" },
    });
    const line = view.timeline.find((entry) => entry.kind === "stuck");
    expect(line).toMatchObject({
      title:
        "Stuck: search_docs called 3 times with the same arguments → finished with the best answer so far",
      tool: "search_docs",
      tone: "bad",
    });
  });

  it("marks both tools of an alternation, and says a nudge told the model", () => {
    const view = applyRunEvents(createRunView("run-1"), [
      event("stuck_detected", {
        pattern: "alternate",
        tools: ["search_docs", "fetch_page"],
        count: 2,
        action: "nudge",
      }),
    ]);
    expect(Object.keys(view.nodes).filter((tool) => view.nodes[tool]?.stuck)).toEqual([
      "search_docs",
      "fetch_page",
    ]);
    expect(view.timeline.at(-1)?.title).toBe(
      "Stuck: alternate of search_docs, fetch_page (2 times) → told the model to change course or answer",
    );
  });
});
