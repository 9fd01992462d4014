import type { FinishReason, PendingPause, RunRecord, RunStatus } from "@waddle/protocol";

/** How to continue a paused run: the REST call and the command line. */
export interface ResumeInstructions {
  method: "POST";
  url: string;
  body: { resumeToken: string; decision: "approve" };
  cli: string;
}

/** A pause as callers outside Waddle see it: why, what it waits for, and how to resume it. */
export interface PauseDescription {
  reason: string;
  waitingFor: string;
  payload: Record<string, unknown>;
  resumeToken: string;
  resume: ResumeInstructions;
}

/** How a run answered for now, for the MCP and OpenAI-compatible endpoints. */
export type AgentRunOutcome =
  | { kind: "answer"; runId: string; status: RunStatus; reason: FinishReason; answer: string }
  | { kind: "pause"; runId: string; status: "paused"; pause: PauseDescription; text: string }
  | { kind: "failure"; runId: string; status: RunStatus; error: { code: string; message: string } };

export interface RunOutcomeOptions {
  /** The server's address as the caller reached it, e.g. `http://127.0.0.1:8787`. */
  serverUrl: string;
  /** The server needs `WADDLE_TOKEN`: the instructions say to send it. */
  tokenRequired: boolean;
}

const PREVIEW_CHARS = 300;

/** A run that ended or paused, told as an answer, a pause with how to resume it, or a failure. */
export function getRunOutcome(run: RunRecord, options: RunOutcomeOptions): AgentRunOutcome {
  const runId = run.id;
  if (run.status === "paused" && run.pause) {
    const pause = describePause(runId, run.pause, options);
    return { kind: "pause", runId, status: "paused", pause, text: getPauseText(run, pause, options) };
  }
  const result = run.result;
  if (run.status === "finished" && result?.kind === "finish") {
    return {
      kind: "answer",
      runId,
      status: run.status,
      reason: result.reason,
      answer: result.payload.answer,
    };
  }
  const error = run.error ?? {
    code: `run_${run.status}`,
    message:
      run.status === "cancelled"
        ? "The run was cancelled."
        : run.status === "interrupted"
          ? "The server stopped while the run was going."
          : `The run ended as ${run.status} without an answer.`,
  };
  return { kind: "failure", runId, status: run.status, error: { code: error.code, message: error.message } };
}

/** One line for a failure, naming the run so that its events can be read. */
export function getFailureText(outcome: Extract<AgentRunOutcome, { kind: "failure" }>): string {
  return `Run ${outcome.runId} ${outcome.status}: ${outcome.error.message} (see GET /api/runs/${outcome.runId}/events).`;
}

function describePause(runId: string, pause: PendingPause, options: RunOutcomeOptions): PauseDescription {
  const auth = options.tokenRequired ? " --token <WADDLE_TOKEN>" : "";
  return {
    reason: pause.reason,
    waitingFor: getWaitingFor(pause),
    payload: pause.payload,
    resumeToken: pause.resumeToken,
    resume: {
      method: "POST",
      url: `${options.serverUrl}/api/runs/${runId}/resume`,
      body: { resumeToken: pause.resumeToken, decision: "approve" },
      cli: `npx waddle resume ${runId} --server ${options.serverUrl}${auth} --approve`,
    },
  };
}

/** What a pause waits for, in words, from its reason and payload. */
export function getWaitingFor(pause: Pick<PendingPause, "reason" | "payload">): string {
  const { payload } = pause;
  const text = (key: string) => (typeof payload[key] === "string" ? (payload[key] as string) : undefined);
  switch (pause.reason) {
    case "approval_required": {
      const tool = text("tool");
      if (tool === undefined) return "a person to approve or reject the results held for review";
      const args = payload.args === undefined ? "" : ` with ${preview(payload.args)}`;
      return `a person to approve, reject or edit the call to ${tool}${args}`;
    }
    case "await_input": {
      const prompt = text("prompt") ?? text("question") ?? text("message");
      return `input from a person${prompt ? `: ${prompt}` : ""}`;
    }
    case "external_event": {
      const event = text("event") ?? text("message");
      return `an external event${event ? `: ${event}` : ""}`;
    }
    case "constraints_conflict":
      return text("message") ?? "a person to relax the agent's planning hints";
    default:
      return `an answer to its pause (${pause.reason})`;
  }
}

function getPauseText(run: RunRecord, pause: PauseDescription, options: RunOutcomeOptions): string {
  const header = options.tokenRequired ? " with `Authorization: Bearer <WADDLE_TOKEN>`" : "";
  const input = pause.reason === "await_input" ? ', "userInput": "…"' : "";
  return [
    `Run ${run.id} of agent "${run.agentId}" paused (${pause.reason}): it waits for ${pause.waitingFor}.`,
    `To resume it, POST ${pause.resume.url}${header} with ` +
      `{"resumeToken": "${pause.resumeToken}", "decision": "approve"${input}} ` +
      `(or "reject", or "edit" with "args"), or run: ${pause.resume.cli} (or --reject).`,
    `Watch it on the canvas, or read GET ${options.serverUrl}/api/runs/${run.id}.`,
  ].join("\n");
}

function preview(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length <= PREVIEW_CHARS ? json : `${json.slice(0, PREVIEW_CHARS)}…`;
}
