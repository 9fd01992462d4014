import { getToolCallKey, type CallRecord, type CallReplay } from "@waddle/planner";
import { NOT_RECORDED, type RunEvent, type ShadowToolCall } from "@waddle/protocol";

/** How a recorded call ended: its observation, or its failure (served again as that failure). */
export type RecordedOutcome =
  { observation: unknown } | { failure: { code: string; message: string; suggestion?: string } };

/** One tool call of a baseline run, in the order it was made. */
export interface RecordedToolCall {
  tool: string;
  /** The call's args: from the run's call record when it has one, else the event's preview. */
  args: unknown;
  outcome: RecordedOutcome;
}

interface OpenCall {
  tool: string;
  args: unknown;
  step: number;
}

/**
 * The tool calls a run made, from its events (every call with how it ended, a retried call once) and its
 * call records (the full args and observation of each successful call; a run without records falls back
 * to the events' bounded previews).
 */
export function getRecordedToolCalls(
  events: readonly RunEvent[],
  records: readonly CallRecord[],
): RecordedToolCall[] {
  const tools = records.filter((record) => record.kind === "tool");
  const used = new Set<number>();
  const open = new Map<string, OpenCall>();
  const calls: RecordedToolCall[] = [];
  for (const event of events) {
    if (event.type === "tool_start") {
      const { tool, callId, args, attempt } = event.data;
      if (attempt === 1) open.set(callId, { tool, args, step: event.step });
      continue;
    }
    if (event.type !== "tool_end" && event.type !== "tool_error") continue;
    const started = open.get(event.data.callId);
    open.delete(event.data.callId);
    const call = started ?? { tool: event.data.tool, args: {}, step: event.step };
    if (event.type === "tool_error") {
      const { failure } = event.data;
      calls.push({
        tool: call.tool,
        args: call.args,
        outcome: {
          failure: {
            code: failure.error_code,
            message: failure.message,
            ...(failure.suggestion === undefined ? {} : { suggestion: failure.suggestion }),
          },
        },
      });
      continue;
    }
    const index = tools.findIndex(
      (record, at) => !used.has(at) && record.tool === call.tool && record.step === call.step,
    );
    const record = index < 0 ? undefined : tools[index];
    if (record) used.add(index);
    calls.push({
      tool: call.tool,
      args: record ? record.args : call.args,
      outcome: { observation: record ? record.observation : event.data.observation },
    });
  }
  return calls;
}

/** A recorded path as the report shows it. */
export function getRecordedPath(calls: readonly RecordedToolCall[]): ShadowToolCall[] {
  return calls.map((call) => ({ tool: call.tool, args: call.args }));
}

/** The candidate's replay layer and the path it took through it. */
export interface ShadowReplay {
  replay: CallReplay;
  /** Every tool call the candidate made, in order; `notRecorded` where it was refused. */
  path: ShadowToolCall[];
}

/**
 * Answers a candidate's tool calls from a baseline run's recording, never from a tool: a call whose name
 * and args (as canonical JSON: key order ignored) equal a recorded call's gets that call's result — each
 * recorded call once, in the order they were made; called again once they are used up, the last of them
 * again. Any other call is refused as `not_recorded`. No call ever reaches a tool, whatever its side effects.
 */
export function createShadowReplay(calls: readonly RecordedToolCall[]): ShadowReplay {
  const byKey = new Map<string, { outcomes: RecordedOutcome[]; next: number }>();
  for (const call of calls) {
    const key = getToolCallKey(call.tool, call.args);
    const entry = byKey.get(key);
    if (entry) entry.outcomes.push(call.outcome);
    else byKey.set(key, { outcomes: [call.outcome], next: 0 });
  }
  const path: ShadowToolCall[] = [];
  const replay: CallReplay = {
    tool(query) {
      const entry = byKey.get(getToolCallKey(query.tool, query.args));
      if (!entry) {
        path.push({ tool: query.tool, args: structuredClone(query.args), notRecorded: true });
        return {
          refused: {
            code: NOT_RECORDED,
            message: `${query.tool} cannot be called with these args here: no such call was recorded.`,
            suggestion: "Answer with what you have, or use another tool.",
          },
        };
      }
      path.push({ tool: query.tool, args: structuredClone(query.args) });
      const outcome = entry.outcomes[Math.min(entry.next, entry.outcomes.length - 1)]!;
      entry.next += 1;
      return "failure" in outcome
        ? { refused: outcome.failure }
        : { observation: structuredClone(outcome.observation) };
    },
  };
  return { replay, path };
}
