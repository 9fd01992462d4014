import type { PlannerOptionsInput, RunEvent } from "@waddle/protocol";
import { z } from "zod";
import { isPlaceholderValue } from "../actions/placeholders.js";
import { buildCatalog } from "../catalog/catalog.js";
import { defineTool } from "../catalog/tool.js";
import { ReactPlanner } from "../loop/react-planner.js";
import type { OpcodeHandler } from "../tasks/opcode-handlers.js";
import { ScriptedClient, scriptedReply, type ScriptedReply } from "./scripted-client.js";

/** One reply of a corpus case: its text, or its text and how the endpoint said it ended. */
export type CorpusReply = string | { content: string; finishReason?: string };

/** How a corpus run must end. */
export type CorpusOutcome =
  /** `answer_complete` with an answer (the model's, or the planner's fallback when it gave none). */
  | "answer"
  /** A budget ended the run and its answer turn answered (`budget_exhausted` or `max_iters`). */
  | "budget_answer"
  /** The run paused for a person (an arg-fill the model could not complete). */
  | "pause"
  /** `no_path`: the model never said anything usable. */
  | "no_path";

/** One malformed reply of the kind weak models send, with what the run must reach. */
export interface MalformedCase {
  id: string;
  /** The family of malformation (`answer_shape`, `escaping`, `placeholder`, …). */
  kind: string;
  description: string;
  /** The replies in order: the malformed one first, then what the model answers when asked again. */
  replies: readonly CorpusReply[];
  /** The calls a run needs when every reply is well-formed (the malformed one written as meant). */
  idealCalls: number;
  options?: PlannerOptionsInput;
  /** The model said something usable (an answer, a call it meant): ending `no_path` would lose it. */
  usable: boolean;
  expect: {
    outcome: CorpusOutcome;
    /** Text the final answer must contain: the answer the model gave. */
    answer?: string;
    /** The tool calls that must have run, in order (args compared as given here, defaults included). */
    tools?: readonly { tool: string; args: Record<string, unknown> }[];
    /** The answer must be marked `salvaged` (inferred from prose or a fragment). */
    salvaged?: boolean;
    /** Task args the opcode handler must have received (a subset). */
    task?: Record<string, unknown>;
  };
}

/** What one corpus run did. */
export interface CorpusResult {
  id: string;
  kind: string;
  outcome: CorpusOutcome | "other";
  reason: string;
  answer: string | undefined;
  llmCalls: number;
  extraCalls: number;
  tools: { tool: string; args: Record<string, unknown> }[];
  /** Tool calls whose args held a placeholder value: must be 0. */
  placeholderRuns: number;
  salvageRules: string[];
  salvaged: boolean;
  tasks: Record<string, unknown>[];
  /** Why the case missed its expectation; empty when it passed. */
  failures: string[];
}

/**
 * The corpus's agent: `search(q, limit?)`, `route(intent: docs|billing|sales, team)`,
 * `get_weather(city, unit?: c|f)`, `combine(results)` (a join), and `send(to, body)`, which needs approval.
 * Every call is recorded with its args.
 */
function createCorpusPlanner(input: {
  replies: readonly CorpusReply[];
  options: PlannerOptionsInput | undefined;
  calls: { tool: string; args: Record<string, unknown> }[];
  tasks: Record<string, unknown>[];
}): { planner: ReactPlanner; client: ScriptedClient } {
  const { calls } = input;
  const note = (tool: string, args: Record<string, unknown>) => void calls.push({ tool, args });
  const search = defineTool({
    name: "search",
    desc: "Search the help center",
    args: z.object({ q: z.string().min(1).describe("What to search for"), limit: z.int().min(1).optional() }),
    out: z.object({ hits: z.array(z.object({ url: z.string(), title: z.string() })) }),
    sideEffects: "read",
    run: (args) => {
      note("search", args);
      return { hits: [{ url: "https://help.example.com/reset-password", title: "Reset your password" }] };
    },
  });
  const route = defineTool({
    name: "route",
    desc: "Route the ticket to a team",
    args: z.object({
      intent: z.enum(["docs", "billing", "sales"]).describe("What the user wants"),
      team: z.string().min(1).describe("The team that takes the ticket"),
    }),
    out: z.object({ ticket: z.string() }),
    run: (args) => {
      note("route", args);
      return { ticket: "T-1001" };
    },
  });
  const weather = defineTool({
    name: "get_weather",
    desc: "Current weather for a city",
    args: z.object({
      city: z.string().min(1).describe("The city to look up"),
      unit: z.enum(["c", "f"]).optional(),
    }),
    out: z.object({ city: z.string(), tempC: z.number() }),
    sideEffects: "read",
    run: (args) => {
      note("get_weather", args);
      return { city: args.city, tempC: 18 };
    },
  });
  const combine = defineTool({
    name: "combine",
    desc: "Combine parallel results",
    args: z.object({ results: z.array(z.unknown()) }),
    out: z.object({ count: z.int() }),
    run: (args) => {
      note("combine", args);
      return { count: args.results.length };
    },
  });
  const send = defineTool({
    name: "send",
    desc: "Send a message to the user",
    args: z.object({ to: z.string(), body: z.string() }),
    out: z.object({ sent: z.boolean() }),
    sideEffects: "external",
    requiresApproval: true,
    run: (args) => {
      note("send", args);
      return { sent: true };
    },
  });
  const handler: OpcodeHandler = (context) => {
    input.tasks.push(context.action.args);
    return Promise.resolve({ observation: { taskId: `task_${input.tasks.length}`, status: "queued" } });
  };
  const replies: ScriptedReply[] = input.replies.map((reply) =>
    typeof reply === "string"
      ? reply
      : scriptedReply(
          reply.content,
          reply.finishReason === undefined ? {} : { finishReason: reply.finishReason },
        ),
  );
  const client = new ScriptedClient(replies);
  let now = 1_000_000;
  const planner = new ReactPlanner({
    llm: client,
    catalog: buildCatalog({ tools: [search, route, weather, combine, send] }),
    options: input.options ?? {},
    clock: () => now,
    sleep: (ms) => {
      now += ms;
      return Promise.resolve();
    },
    opcodeHandlers: { "task.subagent": handler, "task.tool": handler },
    createId: () => "corpus-run",
  });
  return { planner, client };
}

/** Runs one case through the real `ReactPlanner` with a `ScriptedClient`, and judges it. */
export async function runMalformedCase(corpusCase: MalformedCase): Promise<CorpusResult> {
  const calls: { tool: string; args: Record<string, unknown> }[] = [];
  const tasks: Record<string, unknown>[] = [];
  const { planner, client } = createCorpusPlanner({
    replies: corpusCase.replies,
    options: corpusCase.options,
    calls,
    tasks,
  });
  const events: RunEvent[] = [];
  const result: CorpusResult = {
    id: corpusCase.id,
    kind: corpusCase.kind,
    outcome: "other",
    reason: "",
    answer: undefined,
    llmCalls: 0,
    extraCalls: 0,
    tools: calls,
    placeholderRuns: 0,
    salvageRules: [],
    salvaged: false,
    tasks,
    failures: [],
  };
  try {
    const outcome = await planner.run("How do I reset my password?", {
      onEvent: (event) => events.push(event),
    });
    result.reason = outcome.reason;
    if (outcome.kind === "pause") result.outcome = "pause";
    else {
      result.answer = outcome.payload.answer;
      result.salvaged = outcome.payload.salvaged !== undefined;
      result.outcome =
        outcome.reason === "answer_complete"
          ? "answer"
          : outcome.reason === "no_path"
            ? "no_path"
            : outcome.reason === "budget_exhausted" || outcome.reason === "max_iters"
              ? "budget_answer"
              : "other";
    }
  } catch (error) {
    result.reason = `threw: ${error instanceof Error ? error.message : String(error)}`;
  }
  result.llmCalls = client.calls.length;
  result.extraCalls = result.llmCalls - corpusCase.idealCalls;
  result.placeholderRuns = calls.filter((call) =>
    Object.values(call.args).some((value) => isPlaceholderValue(value)),
  ).length;
  result.salvageRules = events.flatMap((event) =>
    event.type === "action_salvaged" ? [event.data.rule] : [],
  );
  result.failures = judge(corpusCase, result);
  return result;
}

function judge(corpusCase: MalformedCase, result: CorpusResult): string[] {
  const failures: string[] = [];
  const { expect } = corpusCase;
  if (result.outcome !== expect.outcome) failures.push(`ended ${result.reason}, expected ${expect.outcome}`);
  if (expect.answer !== undefined && !(result.answer ?? "").includes(expect.answer)) {
    failures.push(`answer ${JSON.stringify(result.answer)} lacks ${JSON.stringify(expect.answer)}`);
  }
  if (expect.tools !== undefined && JSON.stringify(result.tools) !== JSON.stringify(expect.tools)) {
    failures.push(`ran ${JSON.stringify(result.tools)}, expected ${JSON.stringify(expect.tools)}`);
  }
  if (expect.salvaged !== undefined && result.salvaged !== expect.salvaged) {
    failures.push(
      `payload.salvaged ${result.salvaged ? "set" : "unset"}, expected ${expect.salvaged ? "set" : "unset"}`,
    );
  }
  if (expect.task !== undefined) {
    const task = result.tasks[0] ?? {};
    for (const [key, value] of Object.entries(expect.task)) {
      if (JSON.stringify(task[key]) !== JSON.stringify(value)) {
        failures.push(`task ${key} ${JSON.stringify(task[key])}, expected ${JSON.stringify(value)}`);
      }
    }
  }
  if (result.placeholderRuns > 0)
    failures.push(`${result.placeholderRuns} tool calls ran with a placeholder`);
  if (result.llmCalls > corpusCase.replies.length) failures.push("used more replies than the case has");
  return failures;
}

/** The corpus figures the `weak-models` benchmark prints. */
export interface CorpusSummary {
  cases: number;
  passed: number;
  /** Cases whose model gave an answer, and of those, the runs that ended with it. */
  answersExpected: number;
  answersPreserved: number;
  meanExtraCalls: number;
  /** Runs that ended `no_path` although the model had said something usable. */
  noPathWithUsable: number;
  /** Tool calls that ran with a placeholder arg. */
  placeholderRuns: number;
}

export function summarizeCorpus(
  corpus: readonly MalformedCase[],
  results: readonly CorpusResult[],
): CorpusSummary {
  const byId = new Map(corpus.map((item) => [item.id, item]));
  let answersExpected = 0;
  let answersPreserved = 0;
  let extra = 0;
  let noPathWithUsable = 0;
  let placeholderRuns = 0;
  for (const result of results) {
    const corpusCase = byId.get(result.id);
    if (corpusCase === undefined) continue;
    if (corpusCase.expect.answer !== undefined) {
      answersExpected += 1;
      if ((result.answer ?? "").includes(corpusCase.expect.answer)) answersPreserved += 1;
    }
    extra += Math.max(0, result.extraCalls);
    if (corpusCase.usable && result.outcome === "no_path") noPathWithUsable += 1;
    placeholderRuns += result.placeholderRuns;
  }
  return {
    cases: results.length,
    passed: results.filter((result) => result.failures.length === 0).length,
    answersExpected,
    answersPreserved,
    meanExtraCalls: results.length === 0 ? 0 : extra / results.length,
    noPathWithUsable,
    placeholderRuns,
  };
}
