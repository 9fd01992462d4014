import type { RunEvent, RunEventOf } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import { ReactPlanner } from "./react-planner.js";
import { answer, call } from "../testing/run-harness.js";
import { ScriptedClient, scriptedReply, type ScriptedReply } from "../testing/scripted-client.js";
import { defineTool } from "../catalog/tool.js";

function createPlanner(replies: readonly ScriptedReply[], options: { repairAttempts?: number } = {}) {
  const queries: string[] = [];
  const search = defineTool({
    name: "search",
    desc: "Search the web",
    args: z.object({ q: z.string() }),
    out: z.object({ hits: z.int() }),
    run: ({ q }) => {
      queries.push(q);
      return { hits: 3 };
    },
  });
  const llm = new ScriptedClient(replies);
  const planner = new ReactPlanner({
    llm,
    catalog: buildCatalog({ tools: [search] }),
    options: { repairAttempts: options.repairAttempts ?? 2 },
  });
  const events: RunEvent[] = [];
  const run = () => planner.run("find cats", { onEvent: (event) => events.push(event) });
  const ofType = <T extends RunEvent["type"]>(type: T) =>
    events.filter((event): event is RunEventOf<T> => event.type === type);
  return { run, llm, queries, ofType };
}

describe("cut-off replies are repaired, never run", () => {
  it("does not run a tool call whose reply ends inside its args", async () => {
    const cut = '{"next_node":"search","args":{"q":"unterminated';
    const { run, llm, queries, ofType } = createPlanner([
      cut,
      call("search", { q: "unterminated strings in JSON" }),
      answer("Three hits."),
    ]);
    const result = await run();
    expect(result).toMatchObject({ kind: "finish", reason: "answer_complete" });
    expect(queries).toEqual(["unterminated strings in JSON"]);
    expect(ofType("repair_attempt").map((event) => event.data)).toEqual([
      expect.objectContaining({ kind: "parse", error_code: "truncated_reply" }),
    ]);
    expect(llm.calls[1]?.purpose).toBe("repair");
    expect(llm.calls[1]?.messages.at(-2)).toEqual({ role: "assistant", content: cut });
    expect(llm.calls[1]?.messages.at(-1)?.content).toMatch(/cut off.*shorter/);
  });

  it("repairs a final answer that stopped at the token limit (finish_reason length)", async () => {
    const { run, ofType } = createPlanner([
      scriptedReply(answer("Cats are small, carnivorous mam"), { finishReason: "length" }),
      answer("Cats are small carnivorous mammals."),
    ]);
    const result = await run();
    expect(result).toMatchObject({ payload: { answer: "Cats are small carnivorous mammals." } });
    expect(ofType("repair_attempt")[0]?.data).toMatchObject({ error_code: "truncated_reply" });
  });

  it("records a refused step when the repairs run out, and still runs nothing", async () => {
    const cut = scriptedReply(call("search", { q: "cats" }), { finishReason: "length" });
    const { run, queries, ofType } = createPlanner([cut, cut, answer("Nothing found.")], {
      repairAttempts: 1,
    });
    const result = await run();
    expect(result).toMatchObject({ kind: "finish", payload: { answer: "Nothing found." } });
    expect(queries).toEqual([]);
    expect(ofType("tool_start")).toEqual([]);
    expect(ofType("repair_attempt").map((event) => event.data.error_code)).toEqual([
      "truncated_reply",
      "truncated_reply",
    ]);
  });
});
