import { readdirSync, readFileSync } from "node:fs";
import { AgentSpec, type RunEvent, type RunEventOf } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { InMemoryStateStore } from "../../pause/in-memory-state-store.js";
import { OfflineModel } from "./offline-model.js";
import { ReactPlanner } from "../../loop/react-planner.js";

const agentsDir = new URL("../../../../../apps/examples/agents/", import.meta.url);
// Examples whose tools the planner runs by itself (mock); those with TypeScript module tools need the
// server's tool registry and run end to end in server/src/runs/example-agents.test.ts.
const examples = new Map(
  readdirSync(agentsDir)
    .filter((file) => file.endsWith(".json") && !file.endsWith(".tests.json"))
    .map((file) => AgentSpec.parse(JSON.parse(readFileSync(new URL(file, agentsDir), "utf8"))))
    .filter((spec) => spec.tools.every((tool) => tool.impl.kind === "mock"))
    .map((spec) => [spec.id, spec] as const),
);
const example = (id: string): AgentSpec => {
  const spec = examples.get(id);
  if (spec === undefined) throw new Error(`no example agent ${id}`);
  return spec;
};

/** Mock latencies at a tenth (live_search's 5 s still exceeds its 400 ms timeout): the same runs, sooner. */
const fastSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms / 10);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

async function runExample(
  spec: AgentSpec,
  decision: "approve" | "reject" | { edit: Record<string, unknown> } = "approve",
) {
  const events: RunEvent[] = [];
  const planner = ReactPlanner.fromSpec(spec, {
    llm: new OfflineModel({ chunkDelayMs: 0 }),
    sleep: fastSleep,
    stateStore: new InMemoryStateStore(),
  });
  const query = spec.sampleQueries[0] ?? "hello";
  let outcome = await planner.run(query, { onEvent: (event) => events.push(event) });
  // A person answers every approval pause (email-approval's send_email) the same way.
  while (outcome.kind === "pause" && outcome.reason === "approval_required") {
    outcome = await planner.resume(outcome.resumeToken, {
      ...(typeof decision === "string" ? { decision } : { decision: "edit", args: decision.edit }),
      onEvent: (event) => events.push(event),
    });
  }
  return { outcome, events, planner };
}

const ofType = <T extends RunEvent["type"]>(events: readonly RunEvent[], type: T) =>
  events.filter((event): event is RunEventOf<T> => event.type === type);
const toolsStarted = (events: readonly RunEvent[]) =>
  ofType(events, "tool_start")
    .filter((event) => event.data.attempt === 1)
    .map((event) => event.data.tool);

describe("the offline model runs the example agents through ReactPlanner", () => {
  it.each([...examples.keys()])(
    "%s runs to answer_complete, labelled offline, the answer streamed (or held for its guards)",
    async (id) => {
      const spec = example(id);
      const { outcome, events } = await runExample(spec);
      expect(outcome).toMatchObject({ kind: "finish", reason: "answer_complete" });
      const answer = outcome.kind === "finish" ? outcome.payload.answer : "";
      expect(answer.length).toBeGreaterThan(20);
      expect(ofType(events, "run_started")[0]?.data.llm).toEqual({
        provider: "offline",
        model: "offline",
        offline: true,
      });
      expect(
        ofType(events, "llm_call").every((event) => event.data.offline && event.data.model === "offline"),
      ).toBe(true);
      const streamed = ofType(events, "llm_stream_chunk").filter(
        (event) => event.data.channel === "answer" && !event.data.done,
      );
      if (spec.guards.some((guard) => guard.on === "output")) {
        // Output guards hold the answer back from the stream: it arrives whole, once they passed it.
        expect(streamed).toEqual([]);
        expect(ofType(events, "guard_checking")).toHaveLength(1);
      } else {
        expect(streamed.length).toBeGreaterThan(1);
        expect(streamed.map((event) => event.data.text).join("")).toBe(answer);
      }
      expect(ofType(events, "repair_attempt")).toEqual([]);
    },
  );

  it("runs sharded-research's parallel group with its join", async () => {
    const { events } = await runExample(example("sharded-research"));
    const [start] = ofType(events, "parallel_start");
    expect(start?.data.steps.map((step) => step.node)).toEqual([
      "search_web",
      "search_papers",
      "search_news",
    ]);
    expect(start?.data.join?.node).toBe("merge_results");
    expect(ofType(events, "parallel_end")[0]?.data).toMatchObject({
      successCount: 3,
      join: { status: "ok" },
    });
    expect(toolsStarted(events)).toContain("write_brief");
  });

  it("lets auto-seq run document-pipeline's chain after the first tool", async () => {
    const { events, outcome } = await runExample(example("document-pipeline"));
    expect(toolsStarted(events)).toEqual([
      "triage_query",
      "initialize_document_workflow",
      "parse_documents",
      "extract_metadata",
      "generate_summary",
    ]);
    expect(ofType(events, "auto_seq_executed").map((event) => event.data.tool_name)).toEqual([
      "initialize_document_workflow",
      "parse_documents",
      "extract_metadata",
      "generate_summary",
    ]);
    // The offline model chose the first tool and the answer; auto-seq saved the calls in between.
    expect(ofType(events, "llm_call")).toHaveLength(2);
    expect(outcome.metadata?.autoSeqSavedCalls).toBe(4);
  });

  it("re-plans cached-retrieval onto cached_index after live_search times out", async () => {
    const { events, outcome } = await runExample(example("cached-retrieval"));
    expect(toolsStarted(events)).toEqual(["live_search", "cached_index", "summarize"]);
    expect(ofType(events, "tool_error")[0]?.data.tool).toBe("live_search");
    expect(outcome.kind === "finish" ? outcome.payload.answer : "").toContain(
      "cached_index was used instead",
    );
  });

  it("pauses email-approval at send_email, after the lookup and the draft, and sends once approved", async () => {
    const { events, outcome } = await runExample(example("email-approval"));
    const [pause] = ofType(events, "pause");
    expect(pause?.data).toMatchObject({ reason: "approval_required", payload: { tool: "send_email" } });
    expect(ofType(events, "resumed")[0]?.data.decision).toBe("approve");
    expect(toolsStarted(events)).toEqual(["lookup_contact", "draft_email", "send_email"]);
    expect(outcome.kind === "finish" ? outcome.payload.answer : "").toContain(
      "send_email returned sent: yes",
    );
  });

  it("answers from the args a person edited at the approval, not from the draft they replaced", async () => {
    const edited = {
      to: "dana.reyes@example.com",
      subject: "Q3 report ready",
      body: "Hi Dana, the Q3 report is ready. Please review it by Friday.",
    };
    const { events, outcome } = await runExample(example("email-approval"), { edit: edited });
    expect(ofType(events, "resumed")[0]?.data.decision).toBe("edit");
    const answer = outcome.kind === "finish" ? outcome.payload.answer : "";
    expect(answer).toContain("send_email returned sent: yes");
    expect(answer).toContain(edited.body);
    expect(answer).toContain("subject: Q3 report ready");
    // The draft's text (the query in a template) is what the person replaced.
    expect(answer).not.toContain("Best regards");
  });

  it("does not try send_email again once its approval is rejected, and says so", async () => {
    const { events, outcome } = await runExample(example("email-approval"), "reject");
    expect(toolsStarted(events)).toEqual(["lookup_contact", "draft_email"]);
    expect(ofType(events, "pause")).toHaveLength(1);
    expect(outcome).toMatchObject({
      kind: "finish",
      reason: "answer_complete",
      payload: { requires_followup: true },
    });
    expect(outcome.kind === "finish" ? outcome.payload.answer : "").toContain("its approval was rejected");
  });

  it("keeps a todo list on support-triage when todos are enabled", async () => {
    const base = example("support-triage");
    const spec = { ...base, planner: { ...base.planner, maxIters: 12, todos: { enabled: true } } };
    const { events, outcome } = await runExample(spec);
    expect(outcome).toMatchObject({ kind: "finish", reason: "answer_complete" });
    const revisions = ofType(events, "todos_updated").map((event) => event.data.todos);
    expect(revisions.length).toBeGreaterThan(1);
    expect(revisions[0]?.map((todo) => todo.status)).toEqual([
      "in_progress",
      "pending",
      "pending",
      "pending",
    ]);
    expect(revisions.at(-1)?.every((todo) => todo.status === "completed")).toBe(true);
    expect(toolsStarted(events)).toEqual(["triage", "retrieve_docs", "summarize"]);
  });
});
