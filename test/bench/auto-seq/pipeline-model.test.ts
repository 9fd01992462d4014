import type { PlannerView } from "@waddle/planner";
import { describe, expect, it } from "vitest";
import { choosePipelineAction, PIPELINE } from "./pipeline-model.js";

const view = (steps: PlannerView["steps"]) => ({ query: "Summarize Q3", steps }) as unknown as PlannerView;

describe("choosePipelineAction", () => {
  it("triages the query first", () => {
    expect(choosePipelineAction(view([]))).toEqual({
      next_node: "triage_query",
      args: { text: "Summarize Q3" },
    });
  });

  it("passes each observation to the next tool of the pipeline", () => {
    const observation = { query: { text: "q" }, roadmap: ["parse"], stage: "initialized" };
    for (const [index, tool] of PIPELINE.slice(0, -1).entries()) {
      const action = choosePipelineAction(view([{ next_node: tool, args: {}, source: "llm", observation }]));
      expect(action).toEqual({ next_node: PIPELINE[index + 1], args: observation });
    }
  });

  it("answers with the summary after the last tool, whoever chose it", () => {
    const last = {
      next_node: "generate_summary",
      args: {},
      source: "auto_seq",
      observation: { summary: "3 docs" },
    };
    expect(choosePipelineAction(view([last] as PlannerView["steps"]))).toEqual({
      next_node: "final_response",
      args: { answer: "3 docs" },
    });
  });
});
