import { readFileSync } from "node:fs";
import { AgentSpec, type RunEvent, type RunEventOf } from "@waddle/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAiClient } from "./openai-client.js";
import { ParamDropMemory } from "./param-drop-memory.js";
import { ReactPlanner } from "../../loop/react-planner.js";
import { fixtureReply } from "../../testing/openai-fixture-replies.js";
import { startOpenAiFixtureServer, type OpenAiFixtureServer } from "../../testing/openai-fixture-server.js";

const KEY = "sk-planner-e2e-0123456789";
const spec = AgentSpec.parse(
  JSON.parse(
    readFileSync(new URL("../../../../../apps/examples/agents/support-triage.json", import.meta.url), "utf8"),
  ),
);
const query = "My invoice shows a duplicate charge for March";
const answer =
  "Duplicate billing charges are reversed automatically within 5 business days; see the article " +
  "“Duplicate charges and how refunds work” for details.";
const toolCalls = [
  { next_node: "triage", args: { text: query } },
  { next_node: "retrieve_docs", args: { topic: "billing", query } },
  { next_node: "summarize", args: { query, docs: [{ id: "kb-104" }] } },
];

let fixture: OpenAiFixtureServer;
beforeEach(async () => {
  fixture = await startOpenAiFixtureServer({ apiKey: KEY });
});
afterEach(async () => {
  await fixture.close();
});

async function runPlanner(): Promise<{
  events: RunEvent[];
  outcome: Awaited<ReturnType<ReactPlanner["run"]>>;
}> {
  const llm = new OpenAiClient({
    config: { ...spec.llm, provider: "openai", model: "gpt-4o-mini", baseUrl: fixture.baseURL },
    env: { OPENAI_API_KEY: KEY },
    paramMemory: new ParamDropMemory(),
    sleep: () => Promise.resolve(),
  });
  const planner = ReactPlanner.fromSpec(spec, { llm, sleep: () => Promise.resolve() });
  const events: RunEvent[] = [];
  const outcome = await planner.run(query, {
    onEvent: (event) => {
      // Whether the reply that produced this chunk was still being written when the chunk arrived.
      if (event.type === "llm_stream_chunk" && event.data.channel === "answer" && !event.data.done) {
        Object.assign(event.data, { replyFinished: fixture.completionRequests.at(-1)?.finished });
      }
      events.push(event);
    },
  });
  return { events, outcome };
}

const ofType = <T extends RunEvent["type"]>(events: readonly RunEvent[], type: T) =>
  events.filter((event): event is RunEventOf<T> => event.type === type);

describe("ReactPlanner with OpenAiClient against the fixture", () => {
  it("finishes a run through JSON mode, streaming the answer before the reply ends", async () => {
    for (const action of toolCalls) fixture.enqueue(fixtureReply.json(action));
    fixture.enqueue(
      fixtureReply.finalAnswer(answer, { chunkSize: 6, chunkDelayMs: 10, reasoning: "All found." }),
    );
    const { events, outcome } = await runPlanner();
    expect(outcome).toMatchObject({ kind: "finish", reason: "answer_complete", payload: { answer } });
    const bodies = fixture.completionRequests.map((request) => request.body as Record<string, unknown>);
    expect(bodies.every((body) => (body.response_format as { type?: string }).type === "json_object")).toBe(
      true,
    );
    expect(bodies.every((body) => body.stream === true)).toBe(true);
    const answerChunks = ofType(events, "llm_stream_chunk").filter(
      (event) => event.data.channel === "answer",
    );
    const streamed = answerChunks.filter((event) => !event.data.done);
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed[0]?.data).toMatchObject({ replyFinished: false });
    expect(streamed.map((event) => event.data.text).join("")).toBe(answer);
    const thinking = ofType(events, "llm_stream_chunk").filter((event) => event.data.channel === "thinking");
    expect(thinking.map((event) => event.data.text).join("")).toBe("All found.");
    const calls = ofType(events, "llm_call");
    expect(calls).toHaveLength(4);
    expect(calls.every((event) => event.data.provider === "openai" && !event.data.offline)).toBe(true);
    expect(calls.every((event) => event.data.costUsd > 0 && event.data.promptTokens > 0)).toBe(true);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  it("shows a model's <think> block on the thinking channel and still streams the answer", async () => {
    const thought = "Three tools ran; the article answers the question.";
    for (const action of toolCalls)
      fixture.enqueue(fixtureReply.thinkTagged("Next step.", JSON.stringify(action)));
    const final = JSON.stringify({ next_node: "final_response", args: { answer } });
    fixture.enqueue(fixtureReply.thinkTagged(thought, final, { chunkSize: 5, chunkDelayMs: 5 }));
    const { events, outcome } = await runPlanner();
    expect(outcome).toMatchObject({ kind: "finish", reason: "answer_complete", payload: { answer } });
    const chunks = ofType(events, "llm_stream_chunk");
    const lastCall = Math.max(...chunks.map((event) => event.data.action_seq));
    const textOf = (channel: "answer" | "thinking") =>
      chunks
        .filter((event) => event.data.channel === channel && event.data.action_seq === lastCall)
        .map((event) => event.data.text)
        .join("");
    expect(textOf("thinking")).toBe(thought);
    expect(textOf("answer")).toBe(answer);
    const streamed = chunks.filter(
      (event) => event.data.channel === "answer" && !event.data.done && event.data.action_seq === lastCall,
    );
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed[0]?.data).toMatchObject({ replyFinished: false });
    expect(JSON.stringify(ofType(events, "action"))).not.toContain("think>");
    const reflections = ofType(events, "reasoning").filter((event) => event.data.phase === "reflect");
    expect(reflections.map((event) => event.data.summary)).toContain(thought);
  });

  it("turns a stream cut off mid-answer into a repair, not a crash", async () => {
    for (const action of toolCalls) fixture.enqueue(fixtureReply.json(action));
    const final = JSON.stringify({ next_node: "final_response", args: { answer } });
    fixture.enqueue(fixtureReply.cutOff(final, 8, { chunkSize: 8 }), fixtureReply.finalAnswer(answer));
    const { events, outcome } = await runPlanner();
    expect(outcome).toMatchObject({ kind: "finish", reason: "answer_complete", payload: { answer } });
    const repairs = ofType(events, "repair_attempt");
    expect(repairs.map((event) => event.data.error_code)).toContain("stream_interrupted");
    expect(fixture.completionRequests).toHaveLength(5);
  });

  it("repairs a reply the endpoint ended at the token limit (finish_reason length) instead of running it", async () => {
    // Salvage could close this object: triage would then run with the text "My invo".
    const [first, ...rest] = toolCalls;
    const cut = JSON.stringify(first).slice(0, 45);
    fixture.enqueue(fixtureReply.text(cut, { finishReason: "length" }));
    for (const action of [first, ...rest]) fixture.enqueue(fixtureReply.json(action));
    fixture.enqueue(fixtureReply.finalAnswer(answer));
    const { events, outcome } = await runPlanner();
    expect(outcome).toMatchObject({ kind: "finish", reason: "answer_complete", payload: { answer } });
    expect(ofType(events, "repair_attempt").map((event) => event.data.error_code)).toEqual([
      "truncated_reply",
    ]);
    const triageStarts = ofType(events, "tool_start").filter((event) => event.data.tool === "triage");
    expect(triageStarts.map((event) => event.data.args)).toEqual([{ text: query }]);
  });
});
