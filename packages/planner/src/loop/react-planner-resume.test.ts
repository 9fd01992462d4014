import type { PlannerFinishResult, PlannerPauseResult } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import { InMemoryStateStore } from "../pause/in-memory-state-store.js";
import { OfflineModel } from "../llm/offline/offline-model.js";
import { ReactPlanner } from "./react-planner.js";
import type { SerializedPlannerState } from "../run/paused-state.js";
import type { StateStore } from "../pause/state-store.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";
import {
  answer,
  call,
  createEventLog,
  createScriptedPlanner,
  createVirtualTime,
} from "../testing/run-harness.js";
import { ScriptedClient } from "../testing/scripted-client.js";
import { defineTool, type ToolResumeInput } from "../catalog/tool.js";

const emailSpec = loadExampleAgent("email-approval");
const send = { to: "dana.reyes@example.com", subject: "Budget", body: "The budget is approved." };
const beforeSend = [
  call("lookup_contact", { name: "Dana" }),
  call("draft_email", { email: "dana.reyes@example.com", name: "Dana", request: "Budget is approved." }),
  call("send_email", send),
];

function finished(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerFinishResult {
  if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
  return result;
}

function paused(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerPauseResult {
  if (result.kind !== "pause") throw new Error(`expected a pause, got a finish (${result.reason})`);
  return result;
}

/** A store that round-trips through JSON text, as a database would, and counts what it holds. */
function jsonStore(): StateStore & { saved: Map<string, string> } {
  const saved = new Map<string, string>();
  return {
    saved,
    save: async (token, state) => void saved.set(token, JSON.stringify(state)),
    load: async (token) => {
      const text = saved.get(token);
      return text === undefined ? undefined : (JSON.parse(text) as SerializedPlannerState);
    },
    delete: async (token) => void saved.delete(token),
  };
}

async function pauseAtSend(extra: readonly unknown[] = [], store: StateStore = jsonStore()) {
  const { planner, client, time } = createScriptedPlanner(emailSpec, [...beforeSend, ...(extra as never[])], {
    stateStore: store,
  });
  const log = createEventLog();
  const pause = paused(
    await planner.run("Tell Dana the budget is approved", { onEvent: log.onEvent, runId: "run-1" }),
  );
  return { planner, client, time, log, pause, store };
}

describe("ReactPlanner.resume: approvals", () => {
  it("pauses before send_email, then approve runs it and the run finishes, seq continuing", async () => {
    const { planner, client, log, pause } = await pauseAtSend([answer("Sent.")]);
    expect(pause).toMatchObject({ reason: "approval_required", payload: { tool: "send_email", args: send } });
    const pausedSeq = log.events.at(-1)!.seq;
    const result = finished(
      await planner.resume(pause.resumeToken, { decision: "approve", onEvent: log.onEvent }),
    );
    expect(result.reason).toBe("answer_complete");
    expect(log.events.map((event) => event.seq)).toEqual(log.events.map((_, index) => index + 1));
    expect(new Set(log.events.map((event) => event.runId))).toEqual(new Set(["run-1"]));
    const after = log.events.filter((event) => event.seq > pausedSeq);
    expect(after[0]).toMatchObject({
      type: "resumed",
      data: { decision: "approve", reason: "approval_required" },
    });
    expect(after[1]).toMatchObject({ type: "step_start", data: { source: "resume" } });
    expect(log.ofType("tool_end").map((event) => event.data.tool)).toEqual([
      "lookup_contact",
      "draft_email",
      "send_email",
    ]);
    // One LLM call after the resume: the answer. The approved call did not ask the model again.
    expect(client.calls).toHaveLength(4);
    expect(result.metadata.steps).toBe(3);
  });

  it("reject becomes a failure observation the model re-plans from", async () => {
    const { planner, client, pause } = await pauseAtSend([answer("I did not send it.")]);
    const result = finished(
      await planner.resume(pause.resumeToken, { decision: "reject", userInput: "Not today." }),
    );
    expect(result.payload.answer).toBe("I did not send it.");
    const seen = JSON.parse(client.calls.at(-1)!.messages.at(-1)!.content) as {
      failure: Record<string, unknown>;
    };
    expect(seen.failure).toMatchObject({
      node: "send_email",
      error_code: "rejected_by_user",
      message: "A person rejected this call: Not today.",
    });
  });

  it("edit replaces the args after validating them; invalid args leave the pause intact", async () => {
    const { planner, log, pause, store } = await pauseAtSend([answer("Sent.")]);
    await expect(
      planner.resume(pause.resumeToken, { decision: "edit", args: { to: "dana" } }),
    ).rejects.toMatchObject({
      code: "invalid_resume",
      message: expect.stringContaining("send_email") as unknown,
    });
    await expect(planner.resume(pause.resumeToken, { decision: "edit" })).rejects.toMatchObject({
      code: "invalid_resume",
    });
    expect((store as ReturnType<typeof jsonStore>).saved.has(pause.resumeToken)).toBe(true);
    const edited = { ...send, subject: "Budget approved" };
    finished(
      await planner.resume(pause.resumeToken, { decision: "edit", args: edited, onEvent: log.onEvent }),
    );
    expect(log.ofType("resumed")[0]?.data).toMatchObject({ decision: "edit", args: edited });
    expect(log.ofType("tool_start").at(-1)?.data).toMatchObject({
      tool: "send_email",
      args: edited,
      source: "resume",
    });
  });

  it("continues on a fresh planner from the same spec and store, after the state went through JSON", async () => {
    const store = jsonStore();
    const { pause } = await pauseAtSend([], store);
    const saved = store.saved.get(pause.resumeToken)!;
    expect(JSON.parse(saved)).toMatchObject({ format: "waddle.paused-run", state: { runId: "run-1" } });
    const { planner: fresh, client } = createScriptedPlanner(emailSpec, [answer("Sent after restart.")], {
      stateStore: store,
    });
    const log = createEventLog();
    const result = finished(
      await fresh.resume(pause.resumeToken, { decision: "approve", onEvent: log.onEvent }),
    );
    expect(result.payload.answer).toBe("Sent after restart.");
    expect(log.events[0]).toMatchObject({ type: "resumed", runId: "run-1" });
    // The rebuilt prompt holds the three earlier steps: the query, then two pairs of action and result.
    expect(client.calls[0]?.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    expect(store.saved.size).toBe(0);
  });

  it("tokens are single-use: a used token and an overlapping second resume are clear errors", async () => {
    const { planner, pause } = await pauseAtSend([answer("Sent.")]);
    const [first, second] = await Promise.allSettled([
      planner.resume(pause.resumeToken, { decision: "approve" }),
      planner.resume(pause.resumeToken, { decision: "approve" }),
    ]);
    expect(first.status).toBe("fulfilled");
    expect(second).toMatchObject({ status: "rejected", reason: { code: "resume_token_in_use" } });
    await expect(planner.resume(pause.resumeToken, { decision: "approve" })).rejects.toMatchObject({
      code: "unknown_resume_token",
      message: expect.stringContaining("already used") as unknown,
    });
  });

  it("an overlapping resume through another planner on the same store is refused too", async () => {
    const store = jsonStore();
    const { planner, pause } = await pauseAtSend([answer("Sent.")], store);
    const other = createScriptedPlanner(emailSpec, [answer("Sent twice?")], { stateStore: store }).planner;
    const outcomes = await Promise.allSettled([
      other.resume(pause.resumeToken, { decision: "approve" }),
      planner.resume(pause.resumeToken, { decision: "approve" }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  it("uses an in-memory store by default and refuses a document it did not write", async () => {
    const client = new ScriptedClient([answer("never")]);
    const planner = new ReactPlanner({
      llm: client,
      catalog: buildCatalog(),
      hints: { disallow_nodes: [] },
    });
    const store = new InMemoryStateStore();
    await store.save("bad", { hello: "world" });
    const strict = new ReactPlanner({ llm: client, catalog: buildCatalog(), stateStore: store });
    await expect(strict.resume("bad", { decision: "approve" })).rejects.toMatchObject({
      code: "invalid_state",
    });
    await expect(planner.resume("bad", { decision: "approve" })).rejects.toMatchObject({
      code: "unknown_resume_token",
    });
  });

  it("keeps the deadline as an absolute time: a resume after it passed ends the run", async () => {
    const spec = { ...emailSpec, planner: { ...emailSpec.planner, deadlineS: 60 } };
    const { planner, time } = createScriptedPlanner(spec, beforeSend);
    const pause = paused(await planner.run("Tell Dana"));
    time.advance(61_000);
    const log = createEventLog();
    const result = finished(
      await planner.resume(pause.resumeToken, { decision: "approve", onEvent: log.onEvent }),
    );
    expect(result.reason).toBe("budget_exhausted");
    expect(log.ofType("constraint_violation")[0]?.data.constraint).toBe("deadline");
    expect(log.ofType("tool_start")).toEqual([]);
  });

  it("keeps the hop budget and usage across the pause", async () => {
    const spec = { ...emailSpec, planner: { ...emailSpec.planner, hopBudget: 3 } };
    const { planner } = createScriptedPlanner(spec, [
      ...beforeSend,
      call("lookup_contact", { name: "Dana" }),
    ]);
    const pause = paused(await planner.run("Tell Dana"));
    expect(pause.metadata?.llmCalls).toBe(3);
    const log = createEventLog();
    const result = finished(
      await planner.resume(pause.resumeToken, { decision: "approve", onEvent: log.onEvent }),
    );
    // send_email is the third hop; the fourth call is refused by the budget counted before the pause.
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["send_email"]);
    expect(result.reason).toBe("budget_exhausted");
    expect(log.ofType("constraint_violation")[0]?.data.constraint).toBe("hop_budget");
    expect(result.metadata.llmCalls).toBe(4);
  });
});

describe("ReactPlanner.resume: tool pauses and hint conflicts", () => {
  it("a tool that paused with ctx.pause runs again with the person's answer and its own pause payload", async () => {
    const inputs: (ToolResumeInput | undefined)[] = [];
    const asker = defineTool({
      name: "ask_user",
      desc: "Asks the user",
      args: z.object({ question: z.string() }),
      out: z.object({ reply: z.string() }),
      run: ({ question }, context) => {
        inputs.push(context.resumeInput);
        if (context.resumeInput === undefined) return context.pause("await_input", { question });
        return { reply: context.resumeInput.userInput ?? "" };
      },
    });
    const client = new ScriptedClient([
      call("ask_user", { question: "Which account?" }),
      answer("Using savings."),
    ]);
    const planner = new ReactPlanner({ llm: client, catalog: buildCatalog({ tools: [asker] }) });
    const pause = paused(await planner.run("x"));
    expect(pause).toMatchObject({
      reason: "await_input",
      payload: { tool: "ask_user", question: "Which account?", args: { question: "Which account?" } },
    });
    finished(await planner.resume(pause.resumeToken, { decision: "approve", userInput: "savings" }));
    expect(inputs).toEqual([
      undefined,
      {
        decision: "approve",
        userInput: "savings",
        // What the call saved with its pause comes back to it (e.g. a remote task to answer).
        pausePayload: { tool: "ask_user", question: "Which account?", args: { question: "Which account?" } },
      },
    ]);
    const seen = JSON.parse(client.calls[1]!.messages.at(-1)!.content) as unknown;
    expect(seen).toEqual({ observation: { reply: "savings" } });
  });

  it("constraints_conflict: approve goes on with the person's note, reject ends with no_path", async () => {
    const tools = ["a", "b"].map((name) =>
      defineTool({ name, desc: name, args: z.object({}), out: z.object({}), run: () => ({}) }),
    );
    const make = (client: ScriptedClient) =>
      new ReactPlanner({
        llm: client,
        catalog: buildCatalog({ tools }),
        hints: { disallow_nodes: ["a", "b"] },
      });
    const going = new ScriptedClient([answer("Nothing I can call; here is what I know.")]);
    const planner = make(going);
    const pause = paused(await planner.run("x"));
    expect(pause.reason).toBe("constraints_conflict");
    finished(
      await planner.resume(pause.resumeToken, { decision: "approve", userInput: "Answer from memory." }),
    );
    expect(going.calls[0]?.messages.at(-1)?.content).toBe(
      JSON.stringify({ user_input: "Answer from memory." }),
    );
    const declined = make(new ScriptedClient());
    const second = paused(await declined.run("x"));
    const result = finished(await declined.resume(second.resumeToken, { decision: "reject" }));
    expect(result.reason).toBe("no_path");
  });

  it("the offline model continues email-approval after an approval", async () => {
    const planner = ReactPlanner.fromSpec(emailSpec, {
      llm: new OfflineModel({ chunkDelayMs: 0 }),
      sleep: createVirtualTime().sleep,
    });
    const pause = paused(await planner.run(emailSpec.sampleQueries[0] ?? "Email Dana"));
    const result = finished(await planner.resume(pause.resumeToken, { decision: "approve" }));
    expect(result.reason).toBe("answer_complete");
    expect(result.payload.answer).toContain("send_email");
  });
});
