import { describe, expect, it } from "vitest";
import { Cancellation } from "../../util/cancellation.js";
import { buildCatalog } from "../../catalog/catalog.js";
import { createToolRuntime } from "./create-tool-runtime.js";
import { createPlannerConfig } from "../create-planner-config.js";
import { RunEventEmitter } from "../../run/run-event-emitter.js";
import { createRunState } from "../../run/run-state.js";
import { ScriptedClient } from "../../testing/scripted-client.js";

describe("createToolRuntime", () => {
  it("shows tools the run's observations live: last and byTool, nothing else", () => {
    const config = createPlannerConfig({ llm: new ScriptedClient([]), catalog: buildCatalog({}) });
    const state = createRunState({ runId: "r", query: "q", startedAt: 0 });
    const runtime = createToolRuntime({
      config,
      state,
      toolContext: {},
      cancellation: new Cancellation(),
      events: new RunEventEmitter({
        state,
        sink: undefined,
        clock: () => 0,
        secrets: new Set(),
        previewChars: 10,
      }),
      secrets: new Set(),
      reportUsage: () => undefined,
    });
    const { observations } = runtime;
    expect(observations.last).toBeUndefined();
    state.lastObservation = { rows: 3 };
    state.observationsByTool.search = { rows: 3 };
    expect(observations.last).toEqual({ rows: 3 });
    expect(observations.byTool).toEqual({ search: { rows: 3 } });
    expect(Object.keys(observations).sort()).toEqual(["byTool", "last"]);
    expect(JSON.parse(JSON.stringify(observations))).toEqual({
      byTool: { search: { rows: 3 } },
      last: { rows: 3 },
    });
  });
});
