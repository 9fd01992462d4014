import type { PlannerFinishResult } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import { defineTool } from "../catalog/tool.js";
import { answer, createEventLog } from "../testing/run-harness.js";
import { ScriptedClient, type ScriptedCall, type ScriptedReply } from "../testing/scripted-client.js";
import { ReactPlanner } from "./react-planner.js";

// PenguiFlow's finish path and task synonyms as whole runs (seed 000; docs/empty-final-answer.md,
// docs/normalization.md): what the model wrote is the answer at once, or no answer, never a stand-in.

const EMPTY_FINAL = '{"next_node": "final_response", "args": {}}';

function setup(replies: readonly ScriptedReply[]) {
  const started: string[] = [];
  const research = defineTool({
    name: "t",
    desc: "Looks a topic up",
    args: z.object({ topic: z.string().optional() }),
    out: z.object({ fact: z.string() }),
    run: ({ topic }) => {
      started.push(topic ?? "");
      return { fact: `${topic ?? "it"} is documented` };
    },
  });
  const llm = new ScriptedClient(replies);
  const planner = new ReactPlanner({
    llm,
    catalog: buildCatalog({ tools: [research] }),
    options: { tasks: { enabled: true, spawnRequiresConfirmation: false } },
  });
  const log = createEventLog();
  const run = async (): Promise<PlannerFinishResult> => {
    const result = await planner.run("help me", { onEvent: log.onEvent });
    if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
    return result;
  };
  const salvaged = () => log.ofType("action_salvaged").map((event) => event.data.rule);
  return { llm, log, run, started, salvaged };
}

describe("final_response args given as a list of lines", () => {
  it("is the answer at once, with empty and non-text items dropped", async () => {
    const { run, llm, salvaged } = setup([
      '{"next_node": "final_response", "args": ["Line one.", "", 7, "Line two."]}',
    ]);
    const result = await run();
    expect(result).toMatchObject({
      reason: "answer_complete",
      payload: { answer: "Line one.\nLine two.", requires_followup: false },
    });
    expect(llm.calls).toHaveLength(1);
    expect(salvaged()).toEqual(["args_lines"]);
  });
});

describe("task with a string query beside a tool", () => {
  it("spawns a subagent on the query, never a job for the tool with empty args", async () => {
    const isSub = (entry: ScriptedCall) => entry.messages[1]?.content.includes("research X") === true;
    const reply: ScriptedReply = (entry) => {
      const steps = (entry.plannerView as { steps: unknown[] }).steps.length;
      if (isSub(entry)) return answer("X is well documented.");
      return steps === 0
        ? '{"next_node": "task", "args": {"query": "research X", "tool": "t", "retain_turn": true}}'
        : answer("Done.");
    };
    const { run, log, started, salvaged } = setup(Array<ScriptedReply>(4).fill(reply));
    const result = await run();
    expect(result.payload.answer).toBe("Done.");
    expect(log.ofType("task_spawned").map((event) => event.data)).toEqual([
      expect.objectContaining({ mode: "subagent", name: "research X" }),
    ]);
    expect(log.ofType("action")[0]?.data).toMatchObject({
      next_node: "task.subagent",
      args: { query: "research X" },
    });
    expect(started).toEqual([]);
    expect(salvaged()).toContain("task_query_wins");
  });
});

describe("the answer re-ask: a placeholder is no answer", () => {
  it.each(['{"answer": "n/a"}', "unknown", "TBD", "<answer>"])(
    "%s ends with the canned message and a follow-up, never as a complete answer",
    async (reply) => {
      const { run, llm } = setup([EMPTY_FINAL, reply]);
      const result = await run();
      expect(llm.calls).toHaveLength(2);
      expect(llm.calls[1]?.purpose).toBe("repair");
      expect(result).toMatchObject({
        reason: "answer_complete",
        payload: { answer: "The model finished without an answer.", requires_followup: true },
      });
    },
  );
});

describe("the answer re-ask: a cut-off JSON reply", () => {
  it.each(['{"answer": "x"', '{"next_node": "final_response", "args": {"answer": "x'])(
    "%s is no answer (PenguiFlow: a repair reply that does not parse is nothing); its text is kept aside",
    async (reply) => {
      const { run, llm, salvaged } = setup([EMPTY_FINAL, reply]);
      const result = await run();
      expect(llm.calls).toHaveLength(2);
      expect(result).toMatchObject({
        reason: "answer_complete",
        payload: {
          answer: "The model finished without an answer.",
          requires_followup: true,
          extra: { cut_off_answer: "x" },
        },
      });
      expect(result.payload.salvaged).toBeUndefined();
      expect(salvaged()).toEqual(["cut_off_answer_kept"]);
    },
  );
});

describe("answer and raw_answer with different texts", () => {
  it.each([
    ['{"next_node": "final_response", "args": {"answer": "A", "raw_answer": "B"}}'],
    ['{"next_node": "final_response", "raw_answer": "B", "args": {"answer": "A"}}'],
    ['{"thought": "done", "next_node": null, "args": {"answer": "A", "raw_answer": "B"}}'],
  ])("%s keeps answer as the answer (PenguiFlow) and raw_answer beside it under extra", async (reply) => {
    const { run, llm, salvaged } = setup([reply]);
    const result = await run();
    expect(llm.calls).toHaveLength(1);
    expect(result.payload).toMatchObject({
      answer: "A",
      extra: { raw_answer: "B" },
      requires_followup: false,
    });
    expect(salvaged()).toContain("answer_texts_kept");
  });

  it("does the same for a reply to the answer re-ask", async () => {
    const { run } = setup([EMPTY_FINAL, '{"answer": "A", "raw_answer": "B"}']);
    const result = await run();
    expect(result.payload).toMatchObject({ answer: "A", extra: { raw_answer: "B" } });
  });
});
