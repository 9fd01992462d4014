import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createLangChainTools, createLangGraphRunner, ScriptedToolCallModel } from "./langgraph-runner.js";
import { createTrajectory, FINAL_ANSWER } from "./overhead-tools.js";

describe("ScriptedToolCallModel", () => {
  it("answers each turn with the next scripted tool call, then with the final answer", async () => {
    const trajectory = createTrajectory(2);
    const model = new ScriptedToolCallModel(trajectory).bindTools(createLangChainTools());
    const first = await model.invoke([new HumanMessage("go")]);
    expect(first.tool_calls).toEqual([
      { id: "call_0", name: "search_docs", args: trajectory[0]!.args, type: "tool_call" },
    ]);
    const second = await model.invoke([new HumanMessage("go")]);
    expect(second.tool_calls?.[0]).toMatchObject({ name: "fetch_record", args: trajectory[1]!.args });
    const last = await model.invoke([new HumanMessage("go")]);
    expect(last).toBeInstanceOf(AIMessage);
    expect(last.content).toBe(FINAL_ANSWER);
    expect(last.tool_calls ?? []).toEqual([]);
  });

  it("refuses to call a tool that was not bound, and starts over after reset", async () => {
    const model = new ScriptedToolCallModel(createTrajectory(1));
    await expect(model.bindTools([]).invoke([new HumanMessage("go")])).rejects.toThrow(/not bound/);
    model.reset();
    const bound = model.bindTools(createLangChainTools());
    expect((await bound.invoke([new HumanMessage("go")])).tool_calls?.[0]?.name).toBe("search_docs");
  });
});

describe("createLangGraphRunner", () => {
  it("runs the prebuilt ReAct agent through every scripted tool call, run after run", async () => {
    const run = createLangGraphRunner(createTrajectory(6));
    for (let repeat = 0; repeat < 2; repeat += 1) {
      // Six agent turns with a tool call, six tool turns, and the final agent turn.
      expect(await run()).toEqual({ updates: 13, toolMessages: 6, answer: FINAL_ANSWER });
    }
  });
});
