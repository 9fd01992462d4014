import { aggregateTokenUsage, EventType, type Event as AguiEvent, type Interrupt } from "@ag-ui/core";
import type { PendingPause, RunRecord } from "@waddle/protocol";
import { getWaitingFor } from "../run-outcome.js";
import type { AguiEventMapper } from "./agui-event-mapper.js";

/** The AG-UI run's ids, as the client sent them in `RunAgentInput`. */
export interface AguiRunIds {
  threadId: string;
  runId: string;
}

/**
 * What an interrupt's answer may carry in its resume entry's `payload`: a decision (approve when left out),
 * edited arguments for `edit`, a note (the input an `await_input` pause asks for). A plain string is a note.
 */
export const RESUME_PAYLOAD_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    decision: { type: "string", enum: ["approve", "reject", "edit"], default: "approve" },
    args: { type: "object", description: "The tool's arguments as edited (decision edit)." },
    note: { type: "string", description: "Why, or the input the pause asks for." },
  },
  additionalProperties: false,
};

/**
 * The events that end an AG-UI run once its Waddle run answered for now: the answer completed and
 * `RUN_FINISHED` (outcome `success`, the answer as `result`, the tokens of the calls this AG-UI run saw);
 * a pause is `RUN_FINISHED` with an `interrupt` outcome whose interrupt id is the pause's resume token; a
 * cancel is outcome `cancelled`; anything else `RUN_ERROR` with the run's error.
 */
export function getAguiRunEnd(options: {
  mapper: AguiEventMapper;
  run: RunRecord;
  ids: AguiRunIds;
}): AguiEvent[] {
  const { mapper, run, ids } = options;
  const usage = aggregateTokenUsage([...mapper.tokenUsage]);
  const finished = (outcome: Extract<AguiEvent, { type: EventType.RUN_FINISHED }>["outcome"]) => ({
    type: EventType.RUN_FINISHED as const,
    ...ids,
    outcome,
    ...(usage.length > 0 ? { usage } : {}),
  });
  if (run.status === "paused" && run.pause) {
    return [
      ...mapper.close(),
      finished({ type: "interrupt", interrupts: [getInterrupt(run.id, run.pause)] }),
    ];
  }
  if (run.status === "finished" && run.result?.kind === "finish") {
    const { answer } = run.result.payload;
    const events = [...mapper.completeAnswer(answer, run.lastSeq ?? 0), ...mapper.close()];
    return [...events, { ...finished({ type: "success" }), result: { answer } }];
  }
  if (run.status === "cancelled") return [...mapper.close(), finished({ type: "cancelled" })];
  const error = run.error ?? {
    code: `run_${run.status}`,
    message: `The run ended as ${run.status} without an answer.`,
  };
  return [
    ...mapper.close(),
    {
      type: EventType.RUN_ERROR,
      code: error.code,
      message: `${error.message} (run ${run.id}: GET /api/runs/${run.id}/events has its events)`,
    },
  ];
}

/** A Waddle pause as an AG-UI interrupt: answered by a resume entry whose `interruptId` is its id. */
export function getInterrupt(runId: string, pause: PendingPause): Interrupt {
  const tool = typeof pause.payload["tool"] === "string" ? pause.payload["tool"] : undefined;
  return {
    id: pause.resumeToken,
    reason: pause.reason,
    message: `The run waits for ${getWaitingFor(pause)}.`,
    responseSchema: RESUME_PAYLOAD_SCHEMA,
    metadata: { waddle: { runId, ...(tool ? { tool } : {}), payload: pause.payload } },
  };
}
