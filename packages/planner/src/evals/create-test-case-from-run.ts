import type {
  RecordedLlmReply,
  RunEvent,
  RunStatus,
  TestCase,
  TestCaseLlm,
  TestExpect,
  ToolMock,
} from "@waddle/protocol";
import { getReplayableGuardVerdicts } from "./check-guard-verdicts.js";

/** The run a case is saved from, as its record has it. */
export interface RecordedRun {
  id: string;
  query: string;
  status: RunStatus;
  toolContextKeys?: readonly string[];
  /** The answer of a finished run (its record holds it whole; events hold a preview). */
  answer?: string;
}

/** Longest answer pre-filled as `expect.answer.equals`; a longer one is left to the person to expect. */
const MAX_EQUALS_CHARS = 2_000;

/**
 * Turns a recorded run into a test case: its query, its tool results as mocks (in the order they came, args
 * as called), the model's replies (the actions it chose, in order) and `expect` pre-filled from what the
 * run did: its status, its tools in order (any order when it ran branches in parallel), its answer, and
 * what its guards decided (`getReplayableGuardVerdicts`).
 * `toolNames`: the agent's tools; calls of other tools (planner built-ins) are not mocked.
 */
export function createTestCaseFromRun(options: {
  run: RecordedRun;
  events: readonly RunEvent[];
  id: string;
  name?: string;
  llm?: TestCaseLlm;
  toolNames?: readonly string[];
}): TestCase {
  const { run, events } = options;
  const isAgentTool = (tool: string) => options.toolNames === undefined || options.toolNames.includes(tool);
  const mocks = getMocks(events).filter((mock) => isAgentTool(mock.tool));
  const tools = events.flatMap((event) =>
    event.type === "tool_start" && event.data.attempt === 1 && isAgentTool(event.data.tool)
      ? [event.data.tool]
      : [],
  );
  const parallel = events.some((event) => event.type === "parallel_start");
  const expect: TestExpect = {
    status: run.status,
    trajectory: { tools, order: parallel ? "any_order" : "exact" },
  };
  const answer = run.answer ?? getFinishedAnswer(events);
  if (run.status === "finished" && answer !== undefined && answer.length <= MAX_EQUALS_CHARS)
    expect.answer = { equals: answer };
  const guards = getReplayableGuardVerdicts(events);
  if (guards.length > 0) expect.guards = guards;
  return {
    id: options.id,
    name: options.name ?? getCaseName(run.query),
    query: run.query,
    toolContextKeys: [...(run.toolContextKeys ?? [])],
    mocks,
    llm: options.llm ?? "recorded",
    llmReplies: getRecordedReplies(events, answer),
    expect,
    sourceRunId: run.id,
  };
}

/** Each tool call's last outcome, in the order calls ended: its output, or its failure. */
function getMocks(events: readonly RunEvent[]): ToolMock[] {
  const argsByCall = new Map<string, unknown>();
  const mocks: ToolMock[] = [];
  for (const event of events) {
    if (event.type === "tool_start") argsByCall.set(event.data.callId, event.data.args);
    else if (event.type === "tool_end") {
      mocks.push({
        tool: event.data.tool,
        args: toArgs(argsByCall.get(event.data.callId)),
        output: event.data.observation,
      });
    } else if (event.type === "tool_error" && event.data.failure.error_code !== "unexpected_tool_call") {
      mocks.push({
        tool: event.data.tool,
        args: toArgs(argsByCall.get(event.data.callId) ?? event.data.failure.args),
        error: { code: event.data.failure.error_code, message: event.data.failure.message },
      });
    }
  }
  return mocks;
}

/** The model's decisions in order, as replies: each action it chose, with the tokens of its call. */
function getRecordedReplies(events: readonly RunEvent[], answer: string | undefined): RecordedLlmReply[] {
  const usage = events.flatMap((event) =>
    event.type === "llm_call" && (event.data.purpose === "plan" || event.data.purpose === "repair")
      ? [{ promptTokens: event.data.promptTokens, completionTokens: event.data.completionTokens }]
      : [],
  );
  const replies: RecordedLlmReply[] = [];
  for (const event of events) {
    if (event.type !== "action" || event.data.source !== "llm") continue;
    let args = event.data.args;
    if (event.data.next_node === "final_response" && answer !== undefined && isRecord(args))
      args = { ...args, answer };
    replies.push({
      content: JSON.stringify({ next_node: event.data.next_node, args }),
      ...usage[replies.length],
    });
  }
  return replies;
}

function getFinishedAnswer(events: readonly RunEvent[]): string | undefined {
  const finished = events.findLast((event) => event.type === "run_finished");
  return finished?.type === "run_finished" ? finished.data.payload.answer : undefined;
}

function toArgs(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A case's default name: the query's first words. */
function getCaseName(query: string): string {
  const line = query.trim().split("\n")[0] ?? "case";
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || "case";
}
