import { readFileSync } from "node:fs";
import { AgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { getSessionContextMeta, type ConversationTurn } from "../../session/session-context.js";
import { InMemoryStateStore } from "../../pause/in-memory-state-store.js";
import { ReactPlanner } from "../../loop/react-planner.js";
import { getFollowUpRequest } from "./offline-follow-up.js";
import { OfflineModel } from "./offline-model.js";
import { planOfflineAction } from "./offline-plan.js";
import { OfflineView } from "./offline-view.js";

const previous =
  "Demand for cargo bikes is growing in cities. Prices fell by a tenth last year. Three brands lead the market.";

function sessionView(query: string, turns: ConversationTurn[]): OfflineView {
  return OfflineView.parse({
    query,
    tools: [{ name: "research", argsSchema: { type: "object", properties: { topic: { type: "string" } } } }],
    context: getSessionContextMeta({ turns, merged: [], openTodos: [] }),
  });
}

const answerOf = (query: string, turns: ConversationTurn[]) =>
  planOfflineAction({ view: sessionView(query, turns) }).action;

const earlier: ConversationTurn[] = [
  { turn: 1, query: "Research the market for cargo bikes", answer: previous },
];

describe("the offline model in a chat, on a turn that refers to the previous answer", () => {
  it("shortens the previous answer to one sentence instead of researching the request", () => {
    expect(answerOf("Shorten that to one sentence", earlier)).toEqual({
      next_node: "final_response",
      args: { answer: "Demand for cargo bikes is growing in cities." },
    });
  });

  it("keeps a number of sentences or words, lists sentences, or repeats, as asked", () => {
    const answer = (query: string) => answerOf(query, earlier).args["answer"];
    expect(answer("Make it two sentences")).toBe(
      "Demand for cargo bikes is growing in cities. Prices fell by a tenth last year.",
    );
    expect(answer("Summarize your answer in 5 words")).toBe("Demand for cargo bikes is…");
    expect(answer("Make that shorter")).toBe("Demand for cargo bikes is growing in cities.");
    expect(answer("Put that in bullet points")).toBe(
      "- Demand for cargo bikes is growing in cities.\n- Prices fell by a tenth last year.\n" +
        "- Three brands lead the market.",
    );
    expect(answer("Say that again")).toBe(previous);
  });

  it("says plainly that it cannot rephrase, and repeats the previous answer", () => {
    const answer = String(answerOf("Translate that into French", earlier).args["answer"]);
    expect(answer).toContain("The offline model cannot translate text");
    expect(answer).toContain("is not a language model");
    expect(answer.endsWith(previous)).toBe(true);
  });

  it("answers from the newest turn that has an answer", () => {
    const turns: ConversationTurn[] = [
      ...earlier,
      { turn: 2, query: "And bikes for kids?", answer: null, status: "failed" },
    ];
    expect(answerOf("tl;dr", turns).args["answer"]).toBe("Demand for cargo bikes is growing in cities.");
  });

  it("plans as usual for a query of its own, or without an earlier answer", () => {
    expect(answerOf("Research the market for kids' bikes", earlier).next_node).toBe("research");
    expect(answerOf("Tell Sam the launch moved, keep it brief", earlier).next_node).toBe("research");
    expect(answerOf("Shorten that to one sentence", []).next_node).toBe("research");
  });

  it("reads follow-ups, and leaves queries that only mention 'that' or 'brief' alone", () => {
    expect(getFollowUpRequest("Shorten that to one sentence")).toEqual({ kind: "sentences", count: 1 });
    expect(getFollowUpRequest("Can you make it shorter?")).toEqual({ kind: "shorter" });
    expect(getFollowUpRequest("Give me a summary of that")).toEqual({ kind: "shorter" });
    expect(getFollowUpRequest("Write a summary of the market")).toBeUndefined();
    expect(getFollowUpRequest("Rewrite it more formally")).toEqual({ kind: "unsupported", verb: "rewrite" });
    expect(getFollowUpRequest("Email Dana that the Q3 report is ready")).toBeUndefined();
    expect(getFollowUpRequest("Write a brief on cargo bikes")).toBeUndefined();
    expect(getFollowUpRequest("Summarize that article about bikes")).toBeUndefined();
    expect(getFollowUpRequest("Make it happen")).toBeUndefined();
    expect(getFollowUpRequest("again")).toBeUndefined();
  });
});

describe("a chat's second turn through ReactPlanner on the offline model", () => {
  it("shortens the first turn's answer, with no tool call", async () => {
    const agentsDir = new URL("../../../../../apps/examples/agents/", import.meta.url);
    const spec = AgentSpec.parse(
      JSON.parse(readFileSync(new URL("background-research.json", agentsDir), "utf8")),
    );
    const planner = ReactPlanner.fromSpec(spec, {
      llm: new OfflineModel({ chunkDelayMs: 0 }),
      sleep: () => Promise.resolve(),
      stateStore: new InMemoryStateStore(),
    });
    const first = await planner.run("Research the market for cargo bikes");
    const firstAnswer = first.kind === "finish" ? first.payload.answer : "";
    expect(firstAnswer).toContain("cargo bikes");
    const tools: string[] = [];
    const second = await planner.run("Shorten that to one sentence", {
      contextMeta: getSessionContextMeta({
        turns: [{ turn: 1, query: "Research the market for cargo bikes", answer: firstAnswer }],
        merged: [],
        openTodos: [],
      }),
      onEvent: (event) => {
        if (event.type === "tool_start") tools.push(event.data.tool);
      },
    });
    expect(tools).toEqual([]);
    const answer = second.kind === "finish" ? second.payload.answer : "";
    expect(answer).not.toContain("Shorten that");
    expect(firstAnswer.startsWith(answer.replace(/…$/, ""))).toBe(true);
  });
});
