import { describe, expect, it } from "vitest";
import { createRunState } from "../run/run-state.js";
import { TrajectoryMessages } from "./trajectory-messages.js";
import { TrajectoryRecorder } from "./trajectory-recorder.js";

function setup(secrets: string[] = []) {
  const state = createRunState({ runId: "r", query: "q", startedAt: 0 });
  const messages = new TrajectoryMessages("S", "Q");
  let now = 10;
  const recorder = new TrajectoryRecorder(state, messages, new Set(secrets), () => (now += 5));
  return { state, messages, recorder };
}

describe("TrajectoryRecorder", () => {
  it("records steps with timing, appends messages and indexes observations", () => {
    const { state, messages, recorder } = setup();
    const step = recorder.record({
      action: { next_node: "a", args: { x: 1 } },
      source: "llm",
      observation: { v: 1 },
      startedAt: 0,
    });
    expect(step).toMatchObject({ index: 0, next_node: "a", durationMs: 15, observation: { v: 1 } });
    recorder.record({
      action: { next_node: "b", args: {} },
      source: "auto_seq",
      failure: { node: "b", args: {}, error_code: "x", message: "m" },
    });
    expect(state.lastObservation).toEqual({ v: 1 });
    expect(state.observationsByTool).toEqual({ a: { v: 1 } });
    expect([...recorder.visited]).toEqual(["a", "b"]);
    expect(messages.messages).toHaveLength(6);
  });

  it("indexes parallel branches and never counts refused steps as visited", () => {
    const { state, recorder } = setup();
    recorder.record({
      action: { next_node: "parallel", args: {} },
      source: "llm",
      observation: {},
      branches: [
        { node: "a", args: {}, observation: 1 },
        { node: "b", args: {}, failure: { node: "b", args: {}, error_code: "e", message: "m" } },
      ],
      join: { node: "j", skipped: "branch_failures" },
    });
    recorder.record({
      action: { next_node: "ghost", args: {} },
      source: "llm",
      failure: { node: "ghost", args: {}, error_code: "unknown_tool", message: "no" },
      refused: true,
    });
    expect([...recorder.visited]).toEqual(["a", "b"]);
    expect(state.observationsByTool).toEqual({ a: 1 });
    expect(state.steps[1]?.refused).toEqual({ code: "unknown_tool", message: "no" });
  });

  it("scrubs secrets from args, observations, branches, joins and the echoed reply", () => {
    const { state, messages, recorder } = setup(["sk-secret-42"]);
    recorder.record({
      action: { next_node: "parallel", args: { key: "sk-secret-42" } },
      source: "llm",
      observation: { token: "sk-secret-42" },
      branches: [{ node: "a", args: {}, observation: "sk-secret-42" }],
      join: { node: "j", observation: { t: "sk-secret-42" } },
      reply: '{"next_node": "parallel", "args": {"key": "sk-secret-42"}}',
    });
    expect(JSON.stringify({ steps: state.steps, messages: messages.messages })).not.toContain("sk-secret-42");
  });
});
