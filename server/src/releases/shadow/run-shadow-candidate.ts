import { performance } from "node:perf_hooks";
import type { PlannerOutcome, TaskHost } from "@waddle/planner";
import { TaskError } from "@waddle/planner/internal";
import {
  addLlmCallUsage,
  getFinishedStatus,
  NOT_RECORDED,
  type AgentRecord,
  type ShadowSide,
  type Usage,
} from "@waddle/protocol";
import type { PlannerFactory } from "../../runs/planner-factory.js";
import { toFailure } from "../../runs/run-outcome-events.js";
import { EMPTY_USAGE, type WaddleStore } from "../../store/waddle-store.js";
import { createShadowReplay, type RecordedToolCall } from "./shadow-recordings.js";

/** Refuses every background task: a shadow starts none, so none of their tools can run either. */
const NO_TASKS: TaskHost = {
  spawn: () =>
    Promise.reject(
      new TaskError(NOT_RECORDED, "Background tasks are not started here: answer with what you have."),
    ),
  wait: () => Promise.reject(new TaskError(NOT_RECORDED, "No background task was started.")),
  yieldTurn: () => undefined,
};

/**
 * Runs the candidate version on one recorded case, in this process and outside the run service (so it is
 * no run: nothing in history, metrics or the event hub): its own LLM, every tool call answered by the
 * case's recording or refused as `not_recorded` (`createShadowReplay`), background tasks refused, and a
 * pause not waited on — the case ends `paused` and its saved state is deleted at once.
 */
export async function runShadowCandidate(options: {
  store: WaddleStore;
  createPlanner: PlannerFactory;
  agent: AgentRecord;
  runId: string;
  query: string;
  contextMeta?: Record<string, unknown> | undefined;
  recorded: readonly RecordedToolCall[];
  signal?: AbortSignal | undefined;
}): Promise<ShadowSide> {
  const { agent } = options;
  const { replay, path } = createShadowReplay(options.recorded);
  let usage: Usage = { ...EMPTY_USAGE };
  const started = performance.now();
  const side = (
    fields: Pick<ShadowSide, "status" | "answer" | "error">,
    durationMs?: number,
  ): ShadowSide => ({
    version: agent.version,
    ...fields,
    tools: path,
    usage,
    durationMs: durationMs ?? performance.now() - started,
  });
  let outcome: PlannerOutcome;
  try {
    const { planner } = await options.createPlanner({
      spec: agent.spec,
      runId: options.runId,
      agentVersion: agent.version,
    });
    outcome = await planner.run(options.query, {
      runId: options.runId,
      toolContext: {},
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.contextMeta ? { contextMeta: options.contextMeta } : {}),
      onEvent: (event) => {
        if (event.type === "llm_call") usage = addLlmCallUsage(usage, event.data);
      },
      taskHost: NO_TASKS,
      calls: { replay },
    });
  } catch (error) {
    return side({ status: "failed", answer: null, error: toFailure(error) });
  }
  if (outcome.kind === "pause") {
    await options.store.deletePausedState(outcome.resumeToken).catch(() => undefined);
    const tool =
      typeof outcome.payload["tool"] === "string" ? ` before calling ${outcome.payload["tool"]}` : "";
    return side({
      status: "paused",
      answer: null,
      error: {
        code: "paused",
        message: `The candidate paused (${outcome.reason})${tool}: a shadow comparison never waits for a person, so the case ended there.`,
      },
    });
  }
  return side(
    { status: getFinishedStatus(outcome.reason), answer: outcome.payload.answer, error: null },
    outcome.metadata.durationMs,
  );
}
