import type { PlannerFinishResult, PlannerOptionsInput, PlannerPauseResult } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import { defineTool, type ToolRunContext } from "../catalog/tool.js";
import { answer, call, createEventLog, createVirtualTime } from "../testing/run-harness.js";
import { ScriptedClient, scriptedReply, type ScriptedReply } from "../testing/scripted-client.js";
import { ReactPlanner } from "./react-planner.js";

type Outcome = Awaited<ReturnType<ReactPlanner["run"]>>;

function finished(result: Outcome): PlannerFinishResult {
  if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
  return result;
}

function paused(result: Outcome): PlannerPauseResult {
  if (result.kind !== "pause") throw new Error(`expected a pause, got a finish (${result.reason})`);
  return result;
}

/** A planner over search, route (an enum arg), send (needs approval) and ask (pauses itself). */
function setup(replies: readonly ScriptedReply[], options: PlannerOptionsInput = {}) {
  const calls: { tool: string; args: Record<string, unknown>; context: ToolRunContext }[] = [];
  const record = (tool: string) => (args: Record<string, unknown>, context: ToolRunContext) => {
    calls.push({ tool, args, context });
  };
  const search = defineTool({
    name: "search",
    desc: "Search the docs",
    args: z.object({ q: z.string().describe("What to search for"), limit: z.int().optional() }),
    out: z.object({ hits: z.array(z.string()) }),
    sideEffects: "read",
    run: (args, context) => {
      record("search")(args, context);
      return { hits: [`https://docs.example.com/${args.q.replace(/\W+/g, "-")}`] };
    },
  });
  const route = defineTool({
    name: "route",
    desc: "Route the ticket",
    args: z.object({
      intent: z.enum(["docs", "billing"]).describe("Where the ticket goes"),
      team: z.string(),
    }),
    out: z.object({ routed: z.boolean() }),
    run: (args, context) => {
      record("route")(args, context);
      return { routed: true };
    },
  });
  const send = defineTool({
    name: "send",
    desc: "Send a message",
    args: z.object({ to: z.string() }),
    out: z.object({ sent: z.boolean() }),
    sideEffects: "external",
    requiresApproval: true,
    run: (args, context) => {
      record("send")(args, context);
      return { sent: true };
    },
  });
  const ask = defineTool({
    name: "ask",
    desc: "Ask the user",
    args: z.object({ question: z.string() }),
    out: z.object({ reply: z.string() }),
    run: (args, context) => {
      record("ask")(args, context);
      if (context.resumeInput === undefined) context.pause("await_input", { message: args.question });
      return { reply: context.resumeInput?.userInput ?? "" };
    },
  });
  const llm = new ScriptedClient(replies);
  const time = createVirtualTime();
  const planner = new ReactPlanner({
    llm,
    catalog: buildCatalog({ tools: [search, route, send, ask] }),
    options,
    clock: time.clock,
    sleep: time.sleep,
  });
  const log = createEventLog();
  const run = (query = "help me", toolContext?: Record<string, unknown>) =>
    planner.run(query, { onEvent: log.onEvent, ...(toolContext === undefined ? {} : { toolContext }) });
  const salvaged = () => log.ofType("action_salvaged").map((event) => event.data.rule);
  return { planner, llm, log, run, calls, time, salvaged };
}

describe("answers in any shape, without a repair call", () => {
  it.each([
    ['{"answer": "Reset it in Settings."}', "bare_answer"],
    ['{"args": {"answer": "Reset it in Settings."}}', "answer_without_next_node"],
    ['{"next_node": "final_response", "args": {"answer": ["Reset it", "in Settings."]}}', "answer_lines"],
    ['```json\n{"next_node": "final_response", "args": {"answer": "Reset it in Settings."}}\n```', "fenced"],
  ])("%s", async (reply, rule) => {
    const { run, llm, salvaged } = setup([reply]);
    const result = finished(await run());
    expect(result).toMatchObject({
      reason: "answer_complete",
      payload: { answer: expect.stringMatching(/Reset it/) },
    });
    expect(llm.calls).toHaveLength(1);
    expect(salvaged()).toContain(rule);
  });

  it("keeps unknown keys under extra and marks sources the run did not collect", async () => {
    const { run } = setup([
      call("search", { q: "reset" }),
      answer("See the docs.", {
        sources: [{ url: "https://docs.example.com/reset" }, "https://made-up.example.com"],
        mood: "confident",
        confidence: "high",
      }),
    ]);
    const result = finished(await run());
    expect(result.payload).toMatchObject({
      sources: [
        { url: "https://docs.example.com/reset" },
        { url: "https://made-up.example.com", model_provided: true },
      ],
      extra: { mood: "confident", confidence: "high" },
    });
    expect(result.payload.confidence).toBeUndefined();
  });
});

describe("a JSON array of actions", () => {
  it("runs the first and offers the rest back in the next observation, never run unasked", async () => {
    const { run, llm, calls } = setup([
      '[{"next_node": "search", "args": {"q": "a"}}, {"next_node": "search", "args": {"q": "b"}}]',
      answer("Done."),
    ]);
    finished(await run());
    expect(calls.map((item) => item.args)).toEqual([{ q: "a" }]);
    const observation = JSON.parse(llm.calls[1]!.messages.at(-1)!.content);
    expect(observation).toMatchObject({
      observation: { hits: [expect.any(String)] },
      alternates_not_run: [{ next_node: "search", args: { q: "b" } }],
    });
  });
});

describe("the answer re-ask and graceful exhaustion", () => {
  it.each([
    ['{"text": "It is 42."}', "It is 42."],
    ["It is 42.", "It is 42."],
    ["Answer: It is 42.", "It is 42."],
    ['{"response": "TBD", "content": "It is 42."}', "It is 42."],
    ['{"raw_answer": "It is 42."}', "It is 42."],
    ['{"content": "It is 42."}', "It is 42."],
    ['{"answer": "TBD", "message": "It is 42."}', "It is 42."],
    ['{"next_node": "final_response", "args": {"answer": "It is 42."}}', "It is 42."],
  ])("takes %s as the answer after a final_response without one", async (reply, expected) => {
    const { run, llm } = setup(['{"next_node": "final_response", "args": {}}', reply]);
    const result = finished(await run());
    expect(result.payload.answer).toBe(expected);
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls[1]?.purpose).toBe("repair");
  });

  it("a hopeless finish costs two calls, not nine, and keeps the latest result", async () => {
    const { run, llm } = setup([
      call("search", { q: "x" }),
      '{"next_node": "final_response", "args": {}}',
      "{}",
    ]);
    const result = finished(await run());
    expect(llm.calls).toHaveLength(3);
    expect(result).toMatchObject({ reason: "answer_complete", payload: { requires_followup: true } });
    expect(result.payload.answer).toMatch(/without writing an answer. Latest result: .*docs.example.com/);
  });

  it("takes a second plain-text reply in a row as the answer, marked as salvaged", async () => {
    const { run, llm, salvaged } = setup(["Reset it in Settings.", "Reset it in Settings > Account."]);
    const result = finished(await run());
    expect(llm.calls).toHaveLength(2);
    expect(JSON.parse(llm.calls[1]!.messages.at(-1)!.content).instruction).toMatch(/If it is your answer/);
    expect(result).toMatchObject({
      reason: "answer_complete",
      payload: {
        answer: "Reset it in Settings > Account.",
        requires_followup: true,
        salvaged: { rule: "prose_answer" },
      },
    });
    expect(salvaged()).toEqual(["prose_answer"]);
  });

  it("takes a whole answer string from a reply broken after it, at once", async () => {
    const broken = '{"next_node": "final_response", "args": {"answer": "Use the "Reset" link", "sources": [}';
    const { run, llm, salvaged } = setup([broken]);
    const result = finished(await run());
    expect(llm.calls).toHaveLength(1);
    expect(result.payload).toMatchObject({ answer: 'Use the "Reset" link', requires_followup: false });
    expect(salvaged()).toEqual(["answer_string"]);
  });

  it("keeps the text of an unclosed answer, marked, once the model sends it twice", async () => {
    const broken = '{"next_node": "final_response", "args": {"answer": "Use the reset link}}';
    const { run, llm } = setup([broken, broken, broken]);
    const result = finished(await run());
    expect(llm.calls).toHaveLength(2);
    expect(result.payload).toMatchObject({
      answer: "Use the reset link",
      requires_followup: true,
      salvaged: { rule: "answer_fragment" },
    });
  });

  it("never runs a cut-off tool call, and ends no_path only when the model said nothing usable", async () => {
    const cut = scriptedReply(call("search", { q: "cats" }), { finishReason: "length" });
    const { run, calls } = setup(
      Array.from({ length: 9 }, () => cut),
      { maxConsecutiveArgFailures: 3 },
    );
    const result = finished(await run());
    expect(calls).toEqual([]);
    expect(result.reason).toBe("no_path");
  });
});

describe("arg-fill never runs a placeholder", () => {
  it("asks for a field that held a placeholder and reads an XML-tagged reply", async () => {
    const { run, llm, calls } = setup([
      call("route", { intent: "<auto>", team: "support" }),
      "<intent>billing</intent>",
      answer("Routed."),
    ]);
    finished(await run());
    expect(llm.calls[1]?.purpose).toBe("arg_fill");
    expect(JSON.parse(llm.calls[1]!.messages.at(-1)!.content).instruction).toMatch(
      /intent \(one of "docs", "billing"\)/,
    );
    expect(calls.map((item) => item.args)).toEqual([{ intent: "billing", team: "support" }]);
  });

  it("asks the person for the field after two calls when the model cannot give it, and runs with their value", async () => {
    const { planner, run, llm, calls, log } = setup([
      call("route", { intent: "docs" }),
      '{"team": "unknown"}',
      answer("Routed to support."),
    ]);
    const pause = paused(await run());
    expect(llm.calls).toHaveLength(2);
    expect(calls).toEqual([]);
    expect(pause).toMatchObject({
      reason: "await_input",
      payload: { tool: "route", field: "team", missing: ["team"], args: { intent: "docs" } },
    });
    await expect(planner.resume(pause.resumeToken, { decision: "approve" })).rejects.toMatchObject({
      code: "invalid_resume",
    });
    const result = finished(
      await planner.resume(pause.resumeToken, {
        decision: "approve",
        userInput: "support",
        onEvent: log.onEvent,
      }),
    );
    expect(result.payload.answer).toBe("Routed to support.");
    expect(calls.map((item) => item.args)).toEqual([{ intent: "docs", team: "support" }]);
  });

  it("ends no_path naming the field and the tool when pausing is off", async () => {
    const { run, calls } = setup(
      [call("route", { intent: "docs", team: "TBD" }), "I do not know the team."],
      {
        pauseEnabled: false,
      },
    );
    const result = finished(await run());
    expect(result.reason).toBe("no_path");
    expect(result.payload.answer).toMatch(/To call route I need team/);
    expect(calls).toEqual([]);
  });
});

describe("budgets end with an answer", () => {
  it("gives the model one tool-less turn when the hop budget is spent", async () => {
    const { run, llm, calls, log } = setup(
      [
        call("search", { q: "a" }),
        call("search", { q: "b" }),
        answer("From what I found: see docs.example.com/a."),
      ],
      { hopBudget: 1 },
    );
    const result = finished(await run());
    expect(calls).toHaveLength(1);
    expect(llm.calls[2]?.purpose).toBe("answer");
    expect(JSON.parse(llm.calls[2]!.messages.at(-1)!.content)).toMatchObject({
      constraint: { hint: "hop_budget" },
    });
    expect(result).toMatchObject({
      reason: "budget_exhausted",
      payload: { answer: "From what I found: see docs.example.com/a.", requires_followup: true },
    });
    expect(log.ofType("constraint_violation")[0]?.data).toMatchObject({ constraint: "hop_budget" });
  });

  it("falls back to the canned message when the answer turn gives no answer", async () => {
    const { run } = setup(
      [call("search", { q: "a" }), call("search", { q: "b" }), call("search", { q: "c" })],
      {
        hopBudget: 1,
      },
    );
    const result = finished(await run());
    expect(result.reason).toBe("budget_exhausted");
    expect(result.payload.answer).toMatch(/hop budget of 1 tool calls is used up.*Latest result/s);
  });

  it("answers at maxIters, and stops short of the deadline to answer in time", async () => {
    const iters = setup([call("search", { q: "a" }), "I found the reset page."], { maxIters: 1 });
    expect(finished(await iters.run())).toMatchObject({
      reason: "max_iters",
      payload: { answer: "I found the reset page.", salvaged: { rule: "prose_answer" } },
    });
    const deadline = setup(
      [
        call("search", { q: "a" }),
        () => {
          // The model takes 18.5 s: the second search would start past the time tools may use (20 s
          // less a 2 s reserve), with 1.5 s left to answer.
          deadline.time.advance(18_500);
          return call("search", { q: "b" });
        },
        answer("Partial: docs/a."),
      ],
      { deadlineS: 20 },
    );
    const result = finished(await deadline.run());
    expect(result).toMatchObject({ reason: "budget_exhausted", payload: { answer: "Partial: docs/a." } });
    expect(deadline.calls).toHaveLength(1);
  });
});

describe("approvals carry notes, and pauses can be turned off", () => {
  it("gives the approval's note to the model and the tool", async () => {
    const { planner, run, llm, calls } = setup([call("send", { to: "dana" }), answer("Sent.")]);
    const pause = paused(await run("message dana", { session: "abc123456" }));
    finished(
      await planner.resume(pause.resumeToken, {
        decision: "approve",
        userInput: "Use her work address",
        toolContext: { session: "abc123456" },
      }),
    );
    expect(calls[0]?.context.approvalNote).toBe("Use her work address");
    expect(calls[0]?.context.toolContext).toEqual({ session: "abc123456" });
    expect(JSON.parse(llm.calls[1]!.messages.at(-1)!.content)).toEqual({
      observation: { sent: true },
      approval: "approved by a person, note: Use her work address",
    });
  });

  it("refuses a resume without the run's toolContext, leaving the pause to answer again", async () => {
    const { planner, run, calls } = setup([call("send", { to: "dana" }), answer("Sent.")]);
    const pause = paused(await run("message dana", { apiKey: "secret-key-1" }));
    await expect(planner.resume(pause.resumeToken, { decision: "approve" })).rejects.toMatchObject({
      code: "invalid_resume",
      message: expect.stringMatching(/toolContext \(keys: apiKey\)/),
    });
    expect(calls).toEqual([]);
    const result = finished(
      await planner.resume(pause.resumeToken, {
        decision: "approve",
        toolContext: { apiKey: "secret-key-1" },
      }),
    );
    expect(result.payload.answer).toBe("Sent.");
  });

  it("turns approvals and tool pauses into failures the model answers from", async () => {
    const { run, llm, calls } = setup(
      [
        call("send", { to: "dana" }),
        call("ask", { question: "Which dana?" }),
        answer("I could not send it."),
      ],
      { pauseEnabled: false },
    );
    const result = finished(await run());
    expect(result.payload.answer).toBe("I could not send it.");
    expect(calls.map((item) => item.tool)).toEqual(["ask"]);
    expect(JSON.parse(llm.calls[1]!.messages.at(-1)!.content).failure).toMatchObject({
      error_code: "approval_unavailable",
    });
    expect(JSON.parse(llm.calls[2]!.messages.at(-1)!.content).failure).toMatchObject({
      error_code: "pause_unavailable",
      message: expect.stringMatching(/Which dana\?/),
    });
  });
});

describe("runs that never pause", () => {
  it("report hint conflicts and go on, and refuse a spawn nobody can confirm", async () => {
    const { run, llm, log } = setup(
      [{ next_node: "task", args: { mode: "subagent", query: "Collect docs" } }, answer("Done without it.")],
      { pauseEnabled: false, tasks: { enabled: true, spawnRequiresConfirmation: true } },
    );
    const result = finished(await run());
    expect(result.payload.answer).toBe("Done without it.");
    expect(JSON.parse(llm.calls[1]!.messages.at(-1)!.content).failure).toMatchObject({
      error_code: "confirmation_unavailable",
    });
    expect(log.ofType("pause")).toEqual([]);
    const conflicts = new ReactPlanner({
      llm: new ScriptedClient([answer("Answered anyway.")]),
      catalog: buildCatalog({ tools: [] }),
      options: { pauseEnabled: false },
      hints: { parallel_groups: [["a", "b"]], sequential_only: ["a"] },
    });
    const events = createEventLog();
    const outcome = finished(await conflicts.run("x", { onEvent: events.onEvent }));
    expect(outcome.payload.answer).toBe("Answered anyway.");
    expect(events.ofType("constraint_violation").map((event) => event.data.enforced)).toContain("rejected");
  });
});

describe("loose but safe parallel args", () => {
  it("drops malformed steps and a join without node, with events, and tells the model", async () => {
    const { run, llm, calls, salvaged } = setup([
      {
        next_node: "parallel",
        args: { steps: [{ node: "search", args: { q: "a" } }, { args: { q: "b" } }], join: { inject: {} } },
      },
      answer("Done."),
    ]);
    finished(await run());
    expect(calls.map((item) => item.args)).toEqual([{ q: "a" }]);
    expect(salvaged()).toEqual(["parallel_step_dropped", "join_dropped"]);
    expect(JSON.parse(llm.calls[1]!.messages.at(-1)!.content).dropped_steps).toEqual([
      { index: 1, step: { args: { q: "b" } } },
    ]);
  });
});
