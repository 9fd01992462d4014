import { describe, expect, it } from "vitest";
import { ScriptedClient } from "../testing/scripted-client.js";
import { estimateJsonTokens } from "../util/token-estimate.js";
import { compactConversation, getSessionContextBudget } from "./compact-conversation.js";
import { getSessionContextMeta, type ConversationTurn, type SessionContext } from "./session-context.js";

const turns = (count: number, words = 40): ConversationTurn[] =>
  Array.from({ length: count }, (_, index) => ({
    turn: index + 1,
    query: `Question ${index + 1}: ${"about the invoice ".repeat(words / 4)}`,
    answer: `Answer ${index + 1}: ${"the charge was reversed ".repeat(words / 4)}`,
  }));

const context = (list: ConversationTurn[]): SessionContext => ({ turns: list, merged: [], openTodos: [] });

describe("compactConversation", () => {
  it("leaves a context that fits as it is", async () => {
    const small = context(turns(3));
    const result = await compactConversation({ context: small, tokenBudget: 8_000 });
    expect(result.compaction).toBeUndefined();
    expect(result.context).toBe(small);
  });

  it("folds the oldest turns into a rule-based summary and keeps the newest verbatim, within budget", async () => {
    const long = context(turns(60));
    const budget = getSessionContextBudget(4_000);
    expect(estimateJsonTokens(getSessionContextMeta(long))).toBeGreaterThan(budget);
    const result = await compactConversation({ context: long, tokenBudget: 4_000 });
    expect(result.compaction).toMatchObject({ method: "rule_based" });
    const { throughTurn, tokensBefore, tokensAfter } = result.compaction!;
    expect(tokensAfter).toBeLessThanOrEqual(budget);
    expect(tokensBefore).toBeGreaterThan(tokensAfter);
    expect(result.context.summary?.throughTurn).toBe(throughTurn);
    expect(result.context.turns[0]?.turn).toBe(throughTurn + 1);
    expect(result.context.turns.at(-1)).toEqual(long.turns.at(-1));
  });

  it("never folds the newest turn, even when it alone is over its share", async () => {
    const list = [...turns(3), { turn: 4, query: "x".repeat(20_000), answer: "y" }];
    const result = await compactConversation({ context: context(list), tokenBudget: 2_000 });
    expect(result.context.turns).toEqual([list[3]]);
    expect(result.context.summary?.throughTurn).toBe(3);
  });

  it("folds a previous summary into the next one", async () => {
    const first = await compactConversation({ context: context(turns(40)), tokenBudget: 3_000 });
    const more = { ...first.context, turns: [...first.context.turns, ...turns(80).slice(40)] };
    const second = await compactConversation({ context: more, tokenBudget: 3_000 });
    expect(second.context.summary!.throughTurn).toBeGreaterThan(first.context.summary!.throughTurn);
    expect(second.compaction!.tokensAfter).toBeLessThanOrEqual(getSessionContextBudget(3_000));
  });

  it("asks the summarizer LLM when the rule-based summary would drop detail", async () => {
    const summary = {
      goals: ["help with invoices"],
      facts: { refunds: "reversed" },
      pending: [],
      last_output_digest: "done",
    };
    const llm = new ScriptedClient([JSON.stringify(summary)]);
    const result = await compactConversation({ context: context(turns(200, 200)), tokenBudget: 1_000, llm });
    expect(result.compaction?.method).toBe("llm");
    expect(result.context.summary?.state).toEqual(summary);
    expect(llm.calls).toHaveLength(1);
  });
});

describe("getSessionContextMeta", () => {
  it("shows the turns, the summary, merged results (REPLACE superseding) and open todos", () => {
    const meta = getSessionContextMeta({
      turns: [{ turn: 2, query: "And now?", answer: null, status: "failed" }],
      summary: {
        throughTurn: 1,
        state: { goals: ["g"], facts: {}, pending: [], last_output_digest: "" },
      },
      merged: [
        {
          name: "prices",
          strategy: "REPLACE",
          afterTurn: 1,
          tasks: [{ taskId: "t1", name: "prices", status: "completed", result: 1 }],
        },
        {
          name: "prices",
          strategy: "REPLACE",
          afterTurn: 2,
          tasks: [{ taskId: "t2", name: "prices", status: "completed", result: 2 }],
        },
      ],
      openTodos: [{ content: "call back", status: "pending" }],
    });
    expect(meta).toEqual({
      session: {
        summary_of_turns: { through_turn: 1, goals: ["g"], facts: {}, pending: [], last_output_digest: "" },
        turns: [{ turn: 2, user: "And now?", assistant: "(no answer: the turn failed)" }],
        merged_results: [
          { name: "prices", strategy: "REPLACE", after_turn: 1, superseded: true },
          {
            name: "prices",
            strategy: "REPLACE",
            after_turn: 2,
            tasks: [{ taskId: "t2", name: "prices", status: "completed", result: 2 }],
          },
        ],
        open_todos: [{ content: "call back", status: "pending" }],
      },
    });
  });
});
