import type { AgentSpec, ApprovalPolicy } from "@waddle/protocol";
import type { RunRecorder } from "./run-recorder.js";

/** The time limit on a pause at `tool` (or with no tool): the tool's `approval`, else the agent's. */
export function getApprovalPolicy(spec: AgentSpec, tool: unknown): ApprovalPolicy | undefined {
  const own = typeof tool === "string" ? spec.tools.find((candidate) => candidate.name === tool) : undefined;
  return own?.approval ?? spec.approval;
}

/**
 * The sink with each `pause` event given its due time and what the server does then (`dueAt`,
 * `onTimeout`), from the spec's `approval`: the event, the run's row and the inbox then agree on one
 * deadline, fixed when the run paused, whichever instance later decides it.
 */
export function withApprovalDeadline(sink: RunRecorder["sink"], spec: AgentSpec): RunRecorder["sink"] {
  if (!spec.approval && !spec.tools.some((tool) => tool.approval)) return sink;
  return (event) => {
    if (event.type !== "pause" || event.data.dueAt !== undefined) return sink(event);
    const policy = getApprovalPolicy(spec, event.data.payload["tool"]);
    if (!policy) return sink(event);
    const dueAt = new Date(event.ts + policy.timeoutS * 1_000).toISOString();
    sink({ ...event, data: { ...event.data, dueAt, onTimeout: policy.onTimeout } });
  };
}
