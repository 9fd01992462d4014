import { readdirSync, readFileSync } from "node:fs";
import { AgentSpec, type RunEvent, type RunEventOf } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { OfflineModel } from "./offline-model.js";
import { ReactPlanner } from "./react-planner.js";

const agentsDir = new URL("../../../apps/examples/agents/", import.meta.url);
const examples = new Map(
  readdirSync(agentsDir)
    .filter((file) => file.endsWith(".json"))
    .map((file) => {
      const spec = AgentSpec.parse(JSON.parse(readFileSync(new URL(file, agentsDir), "utf8")));
      return [spec.id, spec] as const;
    }),
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

async function runExample(spec: AgentSpec) {
  const events: RunEvent[] = [];
  const planner = ReactPlanner.fromSpec(spec, {
    llm: new OfflineModel({ chunkDelayMs: 0 }),
    sleep: fastSleep,
  });
  const query = spec.sampleQueries[0] ?? "hello";
  const outcome = await planner.run(query, { onEvent: (event) => events.push(event) });
  return { outcome, events, planner };
}

const ofType = <T extends RunEvent["type"]>(events: readonly RunEvent[], type: T) =>
  events.filter((event): event is RunEventOf<T> => event.type === type);
const toolsStarted = (events: readonly RunEvent[]) =>
  ofType(events, "tool_start")
    .filter((event) => event.data.attempt === 1)
    .map((event) => event.data.tool);

const finishing = [...examples.keys()].filter((id) => id !== "email-approval");

describe("the offline model runs the example agents through ReactPlanner", () => {
  it.each(finishing)("%s runs to answer_complete, labelled offline, the answer streamed", async (id) => {
    const { outcome, events } = await runExample(example(id));
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
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed.map((event) => event.data.text).join("")).toBe(answer);
    expect(ofType(events, "repair_attempt")).toEqual([]);
  });

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

  it("walks document-pipeline's auto-seq edges in order", async () => {
    const { events } = await runExample(example("document-pipeline"));
    expect(toolsStarted(events)).toEqual([
      "triage_query",
      "initialize_document_workflow",
      "parse_documents",
      "extract_metadata",
      "generate_summary",
    ]);
  });

  it("re-plans cached-retrieval onto cached_index after live_search times out", async () => {
    const { events, outcome } = await runExample(example("cached-retrieval"));
    expect(toolsStarted(events)).toEqual(["live_search", "cached_index", "summarize"]);
    expect(ofType(events, "tool_error")[0]?.data.tool).toBe("live_search");
    expect(outcome.kind === "finish" ? outcome.payload.answer : "").toContain(
      "cached_index was used instead",
    );
  });

  it("pauses email-approval for approval at send_email, after the lookup and the draft", async () => {
    const { events, outcome } = await runExample(example("email-approval"));
    expect(outcome).toMatchObject({
      kind: "pause",
      reason: "approval_required",
      payload: { tool: "send_email" },
    });
    expect(toolsStarted(events)).toEqual(["lookup_contact", "draft_email"]);
  });
});
