import type { ForkEdit, PlannerFinishResult, RunEvent } from "@waddle/protocol";
import { RunEvent as RunEventSchema } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import { defineTool, type ToolDefinition } from "../catalog/tool.js";
import { ReactPlanner } from "../loop/react-planner.js";
import type { CallRecord } from "../run/call-record.js";
import type { PlannerOutcome } from "../run/run-types.js";
import { answer, call } from "../testing/run-harness.js";
import { ScriptedClient, type ScriptedReply } from "../testing/scripted-client.js";
import { createRecordedCallMatcher } from "./recorded-call-matcher.js";
import { getRecordPrefix } from "./rebuild-run-state.js";

/** Tools that count their calls: what the fork did not call stays at the parent's count. */
function createTools(options: { pageSuffix?: string } = {}) {
  const counts = { search: 0, fetch_page: 0, send: 0 };
  const tools: ToolDefinition[] = [
    defineTool({
      name: "search",
      desc: "Searches the docs",
      sideEffects: "read",
      args: z.object({ q: z.string() }),
      out: z.object({ ids: z.array(z.number()) }),
      run: () => {
        counts.search += 1;
        return { ids: [1, 2] };
      },
    }),
    defineTool({
      name: "fetch_page",
      desc: "Fetches a page",
      sideEffects: "pure",
      args: z.object({ id: z.number() }),
      out: z.object({ text: z.string() }),
      run: ({ id }) => {
        counts.fetch_page += 1;
        return { text: `page ${id}${options.pageSuffix ?? ""}` };
      },
    }),
    defineTool({
      name: "send",
      desc: "Sends a message",
      sideEffects: "write",
      args: z.object({ to: z.string() }),
      out: z.object({ sent: z.boolean() }),
      run: () => {
        counts.send += 1;
        return { sent: true };
      },
    }),
  ];
  return { counts, tools };
}

const script = [
  call("search", { q: "refunds" }),
  call("fetch_page", { id: 1 }),
  call("send", { to: "dana" }),
  answer("Sent page 1 to Dana."),
];

function finished(outcome: PlannerOutcome): PlannerFinishResult {
  if (outcome.kind !== "finish") throw new Error(`expected a finish, got a pause (${outcome.reason})`);
  return outcome;
}

/** The parent run: every event and every record kept, as a host would. */
async function runParent() {
  const { counts, tools } = createTools();
  const client = new ScriptedClient(script);
  const planner = new ReactPlanner({ llm: client, catalog: buildCatalog({ tools }) });
  const events: RunEvent[] = [];
  const records: CallRecord[] = [];
  const outcome = finished(
    await planner.run("Send Dana the refunds page", {
      runId: "parent",
      onEvent: (event) => events.push(event),
      calls: { record: (record) => records.push(record) },
    }),
  );
  return { counts, tools, client, events, records, outcome };
}

/** The events a host copies for a fork at `fromStep`: the parent's before it, under the fork's id. */
function copyPrefix(events: readonly RunEvent[], fromStep: number, runId: string): RunEvent[] {
  return events
    .filter((event) => event.step < fromStep)
    .map((event, index) => ({ ...event, runId, seq: index + 1, replayed: true }));
}

async function fork(input: {
  parent: { events: RunEvent[]; records: CallRecord[] };
  fromStep: number;
  edit?: ForkEdit;
  replies?: ScriptedReply[];
  reuse?: boolean;
  tools?: ToolDefinition[];
  isSameTool?: (tool: string) => boolean;
  runId?: string;
}) {
  const runId = input.runId ?? "fork";
  const made = input.tools === undefined ? createTools() : undefined;
  const tools = input.tools ?? made!.tools;
  const client = new ScriptedClient(input.replies ?? []);
  const planner = new ReactPlanner({ llm: client, catalog: buildCatalog({ tools }) });
  const prefix = copyPrefix(input.parent.events, input.fromStep, runId);
  const events: RunEvent[] = [...prefix];
  const records: CallRecord[] = getRecordPrefix(input.parent.records, input.fromStep);
  const replay =
    input.reuse === false
      ? undefined
      : createRecordedCallMatcher({
          records: input.parent.records,
          ...(input.isSameTool ? { isSameTool: input.isSameTool } : {}),
        });
  const outcome = await planner.fork(
    {
      fromStep: input.fromStep,
      query: "Send Dana the refunds page",
      records: input.parent.records,
      events: prefix,
      ...(input.edit ? { edit: input.edit } : {}),
    },
    {
      runId,
      onEvent: (event) => events.push(event),
      calls: { record: (record) => records.push(record), ...(replay ? { replay } : {}) },
    },
  );
  return { outcome, events, records, client, counts: made?.counts };
}

function ownEvents(events: readonly RunEvent[]): RunEvent[] {
  return events.filter((event) => event.replayed !== true);
}

describe("ReactPlanner.fork", () => {
  it("replays the prefix without calling anything and serves identical calls from the record", async () => {
    const parent = await runParent();
    expect(parent.client.calls).toHaveLength(4);
    const forked = await fork({ parent, fromStep: 2 });
    const outcome = finished(forked.outcome);
    expect(outcome.payload.answer).toBe("Sent page 1 to Dana.");
    // No model call at all: both planning requests after the fork point equal the parent's.
    expect(forked.client.calls).toHaveLength(0);
    // The prefix's tools did not run; the write tool ran for real (never served from a record).
    expect(forked.counts).toEqual({ search: 0, fetch_page: 0, send: 1 });
    const own = ownEvents(forked.events);
    const llmCalls = own.filter((event) => event.type === "llm_call");
    expect(llmCalls.map((event) => event.cached)).toEqual([true, true]);
    const sendStart = own.find((event) => event.type === "tool_start");
    expect(sendStart?.cached).toBeUndefined();
    // seq continues the copied prefix with no gap; every event fits the protocol.
    expect(forked.events.map((event) => event.seq)).toEqual(forked.events.map((_, index) => index + 1));
    for (const event of forked.events) expect(RunEventSchema.safeParse(event).success).toBe(true);
    expect(own.every((event) => event.step >= 2)).toBe(true);
    expect(outcome.metadata.steps).toBe(3);
  });

  it("runs everything after the fork point live with reuse none", async () => {
    const parent = await runParent();
    const forked = await fork({
      parent,
      fromStep: 1,
      reuse: false,
      replies: [call("fetch_page", { id: 1 }), call("send", { to: "dana" }), answer("Live again.")],
    });
    expect(finished(forked.outcome).payload.answer).toBe("Live again.");
    expect(forked.client.calls).toHaveLength(3);
    expect(forked.counts).toEqual({ search: 0, fetch_page: 1, send: 1 });
    expect(ownEvents(forked.events).some((event) => event.cached === true)).toBe(false);
  });

  it("serves a pure tool from the record after the fork point, but never a write tool", async () => {
    const parent = await runParent();
    // The model's reply differs, so planning is live; fetch_page (pure, same args) is served.
    const forked = await fork({
      parent,
      fromStep: 1,
      edit: { kind: "llm_reply", value: JSON.stringify(call("fetch_page", { id: 1 })) },
      replies: [call("send", { to: "dana" }), answer("Done.")],
    });
    finished(forked.outcome);
    expect(forked.counts).toEqual({ search: 0, fetch_page: 0, send: 1 });
    const fetchEnd = ownEvents(forked.events).find(
      (event) => event.type === "tool_end" && event.data.tool === "fetch_page",
    );
    expect(fetchEnd?.cached).toBe(true);
  });

  it("edits an observation: the tool is not called, the model reads the new value", async () => {
    const parent = await runParent();
    const forked = await fork({
      parent,
      fromStep: 1,
      edit: { kind: "observation", value: { text: "page 1 is out of date" } },
      replies: [answer("The page is out of date; nothing was sent.")],
    });
    expect(finished(forked.outcome).payload.answer).toContain("out of date");
    expect(forked.counts).toEqual({ search: 0, fetch_page: 0, send: 0 });
    const end = ownEvents(forked.events).find((event) => event.type === "tool_end");
    expect(end?.data).toMatchObject({ tool: "fetch_page", edited: true });
    expect(end?.cached).toBeUndefined();
    const lastMessage = forked.client.calls[0]!.messages.at(-1)!.content;
    expect(lastMessage).toContain("page 1 is out of date");
  });

  it("edits the first step's observation: a run that starts with the edited call", async () => {
    const parent = await runParent();
    const forked = await fork({
      parent,
      fromStep: 0,
      edit: { kind: "observation", value: { ids: [] } },
      replies: [answer("Nothing found.")],
    });
    expect(finished(forked.outcome).payload.answer).toBe("Nothing found.");
    expect(forked.counts).toEqual({ search: 0, fetch_page: 0, send: 0 });
    expect(forked.events[0]?.type).toBe("run_started");
    expect(forked.events.map((event) => event.seq)).toEqual(forked.events.map((_, index) => index + 1));
    expect(forked.client.calls[0]!.messages.at(-1)!.content).toContain('"ids":[]');
  });

  it("edits args: the step's tool runs with them", async () => {
    const parent = await runParent();
    const forked = await fork({
      parent,
      fromStep: 1,
      edit: { kind: "args", value: { id: 7 } },
      replies: [answer("Read page 7.")],
    });
    finished(forked.outcome);
    expect(forked.counts).toEqual({ search: 0, fetch_page: 1, send: 0 });
    expect(forked.client.calls[0]!.messages.at(-1)!.content).toContain("page 7");
  });

  it("edits the model's reply, and an unparseable one goes through repair", async () => {
    const parent = await runParent();
    const answered = await fork({
      parent,
      fromStep: 3,
      edit: { kind: "llm_reply", value: JSON.stringify(answer("A written answer.")) },
    });
    expect(finished(answered.outcome).payload.answer).toBe("A written answer.");
    expect(answered.client.calls).toHaveLength(0);
    const edited = ownEvents(answered.events).find((event) => event.type === "llm_call");
    expect(edited?.data).toMatchObject({ edited: true });

    const broken = await fork({
      parent,
      fromStep: 3,
      edit: { kind: "llm_reply", value: "I think we are done {" },
      replies: [answer("Repaired.")],
    });
    expect(finished(broken.outcome).payload.answer).toBe("Repaired.");
    expect(broken.events.some((event) => event.type === "repair_attempt")).toBe(true);
  });

  it("edits the query at step 0: a new run whose identical tool calls are served", async () => {
    const parent = await runParent();
    const forked = await fork({
      parent,
      fromStep: 0,
      edit: { kind: "query", value: "Send Dana the refunds page, politely" },
      replies: [...script],
    });
    finished(forked.outcome);
    expect(forked.client.calls[0]!.messages[1]!.content).toContain("politely");
    expect(forked.counts).toEqual({ search: 0, fetch_page: 0, send: 1 });
    expect(forked.events[0]?.type).toBe("run_started");
  });

  it("forks a fork: the second fork rebuilds from the first one's record", async () => {
    const parent = await runParent();
    const first = await fork({
      parent,
      fromStep: 1,
      edit: { kind: "observation", value: { text: "page 1, edited" } },
      replies: [call("send", { to: "dana" }), answer("First fork.")],
      runId: "fork-1",
    });
    finished(first.outcome);
    const second = await fork({ parent: first, fromStep: 2, runId: "fork-2" });
    expect(finished(second.outcome).payload.answer).toBe("First fork.");
    // The edited observation is part of the rebuilt history, so the requests equal the first fork's.
    expect(second.client.calls).toHaveLength(0);
    expect(second.counts).toEqual({ search: 0, fetch_page: 0, send: 1 });
  });

  it("on another version, a changed tool runs live while unchanged ones are served", async () => {
    const parent = await runParent();
    const changed = createTools({ pageSuffix: " (v2)" });
    const forked = await fork({
      parent,
      fromStep: 1,
      tools: changed.tools,
      isSameTool: (tool) => tool !== "fetch_page",
      edit: { kind: "llm_reply", value: JSON.stringify(call("fetch_page", { id: 1 })) },
      replies: [answer("Version two.")],
    });
    finished(forked.outcome);
    expect(changed.counts.fetch_page).toBe(1);
    expect(forked.client.calls[0]!.messages.at(-1)!.content).toContain("(v2)");
  });

  it("checks edits against the step and the tool's schemas", async () => {
    const parent = await runParent();
    const planner = new ReactPlanner({
      llm: new ScriptedClient([]),
      catalog: buildCatalog({ tools: createTools().tools }),
    });
    const check = (fromStep: number, edit: ForkEdit) =>
      planner.checkForkEdit({ fromStep, edit, records: parent.records });
    expect(check(1, { kind: "observation", value: { text: "ok" } })).toEqual({ ok: true });
    const bad = check(1, { kind: "observation", value: { text: 3 } });
    expect(bad).toMatchObject({ ok: false, reason: "invalid_observation" });
    expect(bad.ok === false && bad.issues?.[0]?.path).toEqual(["text"]);
    expect(check(1, { kind: "args", value: { id: "seven" } })).toMatchObject({ reason: "invalid_args" });
    expect(check(3, { kind: "args", value: {} })).toMatchObject({ reason: "not_a_tool_step" });
    expect(check(2, { kind: "query", value: "again" })).toMatchObject({ reason: "query_needs_step_0" });
    expect(check(3, { kind: "llm_reply", value: "not json" })).toEqual({ ok: true });
  });

  it("keeps toolContext secrets out of the record", async () => {
    const leaky = defineTool({
      name: "whoami",
      desc: "Echoes the key it was given",
      sideEffects: "read",
      args: z.object({}),
      out: z.object({ key: z.string() }),
      run: (_args, context) => ({ key: String(context.toolContext.apiKey) }),
    });
    const secret = "sk-live-0123456789abcdef";
    const planner = new ReactPlanner({
      llm: new ScriptedClient([call("whoami"), answer(`The key is ${secret}.`)]),
      catalog: buildCatalog({ tools: [leaky] }),
    });
    const records: CallRecord[] = [];
    await planner.run("Which key?", {
      toolContext: { apiKey: secret },
      calls: { record: (record) => records.push(record) },
    });
    expect(records.map((record) => record.kind)).toEqual(["llm", "tool", "step", "llm"]);
    expect(JSON.stringify(records)).not.toContain(secret);
  });

  it("refuses a prefix the record lacks", async () => {
    const parent = await runParent();
    const records = parent.records.filter((record) => !(record.kind === "step" && record.step.index === 1));
    await expect(fork({ parent: { ...parent, records }, fromStep: 2 })).rejects.toMatchObject({
      code: "invalid_fork",
    });
  });
});
