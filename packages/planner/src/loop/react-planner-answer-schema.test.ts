import type { AgentSpecInput } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import { defineTool } from "../catalog/tool.js";
import { isPlannerError } from "../errors/planner-error.js";
import { OfflineModel } from "../llm/offline/offline-model.js";
import { call, createEventLog } from "../testing/run-harness.js";
import { ScriptedClient, type ScriptedReply } from "../testing/scripted-client.js";
import { ReactPlanner } from "./react-planner.js";

// Structured answers (docs/guides/structured-answers.md): with an answer schema, the answer is an object
// valid against it, re-asked with the errors within repairAttempts, else the run fails, typed.

const WEATHER_SCHEMA = {
  type: "object",
  properties: {
    city: { type: "string" },
    celsius: { type: "number" },
    summary: { type: "string" },
  },
  required: ["city", "celsius"],
  additionalProperties: false,
};

const final = (answer: unknown) => ({ next_node: "final_response", args: { answer } });

function setup(replies: readonly ScriptedReply[], repairAttempts = 2) {
  const weather = defineTool({
    name: "weather",
    desc: "The weather in a city",
    args: z.object({ city: z.string() }),
    out: z.object({ city: z.string(), celsius: z.number() }),
    run: ({ city }) => ({ city, celsius: 21 }),
  });
  const llm = new ScriptedClient(replies);
  const planner = new ReactPlanner({
    llm,
    catalog: buildCatalog({ tools: [weather] }),
    options: { repairAttempts },
    answerSchema: WEATHER_SCHEMA,
  });
  const log = createEventLog();
  return { llm, log, run: () => planner.run("Weather in Paris?", { onEvent: log.onEvent }) };
}

describe("a run with an answer schema", () => {
  it("tells the model the schema and finishes with the object as data and its JSON text as answer", async () => {
    const { llm, run } = setup([
      call("weather", { city: "Paris" }),
      final({ city: "Paris", celsius: 21, summary: "Mild" }),
    ]);
    const result = await run();
    expect(result).toMatchObject({
      kind: "finish",
      reason: "answer_complete",
      payload: { data: { city: "Paris", celsius: 21, summary: "Mild" } },
    });
    if (result.kind !== "finish") throw new Error("expected a finish");
    expect(JSON.parse(result.payload.answer)).toEqual({ city: "Paris", celsius: 21, summary: "Mild" });
    const system = llm.calls[0]?.messages[0]?.content ?? "";
    expect(system).toContain("Answer schema:");
    expect(system).toContain('"celsius"');
  });

  it("keeps an object answer whole even when it has a text field the normalizer would unwrap", async () => {
    const { run } = setup([final({ city: "Paris", celsius: 21, summary: "Mild" })]);
    const result = await run();
    expect(result).toMatchObject({ payload: { data: { summary: "Mild", city: "Paris" } } });
  });

  it("accepts the object written as JSON text", async () => {
    const { run } = setup([final('{"city": "Paris", "celsius": 20.5}')]);
    const result = await run();
    expect(result).toMatchObject({ payload: { data: { city: "Paris", celsius: 20.5 } } });
  });

  it("re-asks once with the validation errors and finishes with the fixed answer", async () => {
    const { llm, log, run } = setup([
      final({ city: "Paris", celsius: "warm" }),
      final({ city: "Paris", celsius: 21 }),
    ]);
    const result = await run();
    expect(result).toMatchObject({
      reason: "answer_complete",
      payload: { data: { city: "Paris", celsius: 21 } },
    });
    expect(llm.calls).toHaveLength(2);
    const reask = JSON.stringify(llm.calls[1]?.messages.slice(2));
    expect(reask).toContain("answer_schema_invalid");
    expect(reask).toContain("celsius");
    const repairs = log.ofType("repair_attempt").map((event) => event.data);
    expect(repairs).toEqual([
      expect.objectContaining({ kind: "answer_schema", attempt: 1, error_code: "answer_schema_invalid" }),
    ]);
  });

  it("fails with answer_schema_failed, the last reply and the errors kept, when no answer ever fits", async () => {
    const { llm, log, run } = setup([
      final("It is 21 degrees in Paris."),
      final({ city: "Paris" }),
      final({ city: "Paris", celsius: 21, wind: "none" }),
    ]);
    const error = await run().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isPlannerError(error, "answer_schema_failed")).toBe(true);
    if (!isPlannerError(error)) throw new Error("expected a PlannerError");
    expect(error.details).toMatchObject({
      lastReply: '{"city":"Paris","celsius":21,"wind":"none"}',
      attempts: 3,
    });
    expect(String(error.details?.errors)).toMatch(/wind|unrecognized/i);
    expect(llm.calls).toHaveLength(3);
    expect(log.ofType("run_finished")).toHaveLength(0);
    const failed = log.ofType("run_failed")[0]?.data.error;
    expect(failed).toMatchObject({ code: "answer_schema_failed", details: { attempts: 3 } });
  });

  it("never returns valid JSON that the schema refuses, even with no repairs left", async () => {
    const { log, run } = setup([final('{"city": 7, "celsius": 21}')], 0);
    await expect(run()).rejects.toMatchObject({ code: "answer_schema_failed" });
    expect(log.ofType("run_finished")).toHaveLength(0);
  });
});

describe("the offline model with an answer schema", () => {
  it("answers with an object that fits, filled from the agent's last results by type", async () => {
    const spec: AgentSpecInput = {
      version: 1,
      id: "weather",
      name: "Weather",
      answerSchema: {
        type: "object",
        properties: {
          city: { type: "string" },
          celsius: { type: "number" },
          summary: { type: "string" },
          sunny: { type: "boolean" },
          tags: { type: "array", items: { type: "string" } },
        },
        required: ["city", "celsius", "summary", "sunny", "tags"],
      },
      tools: [
        {
          name: "weather",
          desc: "The weather in a city",
          argsSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          outSchema: {
            type: "object",
            properties: { city: { type: "string" }, celsius: { type: "number" } },
          },
          impl: { kind: "mock", output: { city: "Paris", celsius: 19 } },
        },
      ],
    };
    const planner = ReactPlanner.fromSpec(spec, { llm: new OfflineModel({ chunkDelayMs: 0 }) });
    const result = await planner.run("Weather in Paris?");
    expect(result).toMatchObject({
      kind: "finish",
      reason: "answer_complete",
      payload: { data: { city: "Paris", celsius: 19, sunny: false, tags: [] } },
    });
    if (result.kind !== "finish") throw new Error("expected a finish");
    expect(typeof result.payload.data?.summary).toBe("string");
    expect(result.payload.data?.summary).not.toBe("");
  });
});

describe("a run with an answer schema that ends at a limit", () => {
  function limited(replies: readonly ScriptedReply[]) {
    const weather = defineTool({
      name: "weather",
      desc: "The weather in a city",
      args: z.object({ city: z.string() }),
      out: z.object({ city: z.string(), celsius: z.number() }),
      run: ({ city }) => ({ city, celsius: 21 }),
    });
    const planner = new ReactPlanner({
      llm: new ScriptedClient(replies),
      catalog: buildCatalog({ tools: [weather] }),
      options: { maxIters: 1 },
      answerSchema: WEATHER_SCHEMA,
    });
    return planner.run("Weather in Paris?");
  }

  it("keeps the answer turn's object as data when it fits", async () => {
    const result = await limited([call("weather", { city: "Paris" }), final({ city: "Paris", celsius: 21 })]);
    expect(result).toMatchObject({
      kind: "finish",
      reason: "max_iters",
      payload: { data: { city: "Paris", celsius: 21 } },
    });
  });

  it("fails answer_schema_failed rather than return prose to a caller who asked for an object", async () => {
    const error = await limited([call("weather", { city: "Paris" }), final("It is mild in Paris.")]).catch(
      (caught: unknown) => caught,
    );
    expect(isPlannerError(error) && error.code).toBe("answer_schema_failed");
    expect(isPlannerError(error) && error.details).toMatchObject({
      reason: "max_iters",
      lastReply: "It is mild in Paris.",
    });
  });
});

describe("a run with an answer schema, streaming", () => {
  it("streams no answer text: a refused answer never reaches a stream before the one that fits", async () => {
    const { log, run } = setup([final("Mild in Paris."), final({ city: "Paris", celsius: 21 })]);
    const result = await run();
    expect(result).toMatchObject({ kind: "finish", payload: { data: { city: "Paris", celsius: 21 } } });
    expect(log.ofType("llm_stream_chunk").filter((event) => event.data.phase === "answer")).toEqual([]);
  });
});
