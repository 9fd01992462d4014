import { readdirSync, readFileSync } from "node:fs";
import { AgentSpec, renderTemplate, type PlannerAction, type ToolSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import type { LlmChunk } from "../llm-client.js";
import { isLlmError } from "../../errors/llm-error.js";
import { OfflineModel } from "./offline-model.js";
import type { PlannerView, PlannerViewStep, PlannerViewTodo } from "../../run/planner-view.js";

const agentsDir = new URL("../../../../../apps/examples/agents/", import.meta.url);
const examples = readdirSync(agentsDir)
  .filter((file) => file.endsWith(".json") && !file.endsWith(".tests.json"))
  .map((file) => AgentSpec.parse(JSON.parse(readFileSync(new URL(file, agentsDir), "utf8"))))
  // This simulation runs mock tools only; examples on TypeScript module tools run end to end in
  // server/src/runs/example-agents.test.ts.
  .filter((spec) => spec.tools.every((tool) => tool.impl.kind === "mock"));
const example = (id: string): AgentSpec => {
  const spec = examples.find((candidate) => candidate.id === id);
  if (spec === undefined) throw new Error(`no example ${id}`);
  return spec;
};

interface Simulation {
  actions: PlannerAction[];
  steps: PlannerViewStep[];
  answer?: string;
  chunks: LlmChunk[];
  todoRevisions: PlannerViewTodo[][];
}

/**
 * A stand-in for the loop, enough to watch the offline model's choices: mock tools render their templates,
 * a tool whose mock latency exceeds its timeout fails as a timeout, `reject` refuses approvals.
 */
async function simulate(
  spec: AgentSpec,
  options: {
    query?: string;
    todos?: boolean;
    reject?: string[];
    /** Tools that fail with this error (as a filesystem server says "Access denied"). */
    fail?: Record<string, { code: string; message: string }>;
    maxIters?: number;
  } = {},
): Promise<Simulation> {
  const model = new OfflineModel({ chunkDelayMs: 0, chunkSize: 16 });
  const query = options.query ?? spec.sampleQueries[0] ?? "hello";
  const maxIters = options.maxIters ?? spec.planner.maxIters;
  const simulation: Simulation = { actions: [], steps: [], chunks: [], todoRevisions: [] };
  let todos: PlannerViewTodo[] = [];
  const byTool: Record<string, unknown> = {};
  const run = (
    name: string,
    args: Record<string, unknown>,
  ): Pick<PlannerViewStep, "observation" | "failure"> => {
    const tool = spec.tools.find((candidate) => candidate.name === name) as ToolSpec;
    if (options.reject?.includes(name)) {
      return {
        // As the planner records it (resume-decision.ts, recordRejection).
        failure: {
          node: name,
          args,
          error_code: "rejected_by_user",
          message: "A person rejected this call.",
        },
      };
    }
    const failing = options.fail?.[name];
    if (failing) return { failure: { node: name, args, error_code: failing.code, message: failing.message } };
    if (tool.impl.kind !== "mock") throw new Error("mock tools only");
    if (tool.timeoutMs !== undefined && (tool.impl.latencyMs ?? 0) > tool.timeoutMs) {
      return {
        failure: {
          node: name,
          args,
          error_code: "tool_timeout",
          message: `timed out after ${tool.timeoutMs} ms`,
        },
      };
    }
    const observation = renderTemplate(tool.impl.output, { args, query, steps: byTool, call: 1 });
    byTool[name] = observation;
    return { observation };
  };
  for (let iteration = 0; iteration < maxIters; iteration += 1) {
    const view: PlannerView = {
      query,
      tools: spec.tools,
      hints: spec.hints,
      edges: spec.edges,
      groups: spec.groups,
      steps: simulation.steps,
      todos: { enabled: options.todos ?? false, items: todos },
      tasksEnabled: false,
      iteration,
      maxIters,
    };
    const result = await model.complete({
      messages: [{ role: "user", content: query }],
      plannerView: view,
      stream: true,
      onChunk: (chunk) => simulation.chunks.push(chunk),
    });
    const action = JSON.parse(result.content) as PlannerAction;
    simulation.actions.push(action);
    if (action.next_node === "final_response") {
      simulation.answer = action.args.answer as string;
      return simulation;
    }
    if (action.next_node === "write_todos") {
      todos = action.args.todos as PlannerViewTodo[];
      simulation.todoRevisions.push(todos);
      simulation.steps.push({
        next_node: "write_todos",
        args: action.args,
        source: "llm",
        observation: { ok: true },
      });
    } else if (action.next_node === "parallel") {
      const parallel = action.args as {
        steps: { node: string; args: Record<string, unknown> }[];
        join?: { node: string; inject: Record<string, string> };
      };
      const branches = parallel.steps.map((step) => ({ ...step, ...run(step.node, step.args) }));
      const step: PlannerViewStep = { next_node: "parallel", args: action.args, source: "llm", branches };
      if (parallel.join !== undefined) {
        const results = branches.map((branch) => branch.observation);
        const joinArgs = { results, expect: branches.length };
        step.join = { node: parallel.join.node, ...run(parallel.join.node, joinArgs) };
      }
      simulation.steps.push(step);
    } else {
      simulation.steps.push({
        next_node: action.next_node,
        args: action.args,
        source: "llm",
        ...run(action.next_node, action.args),
      });
    }
  }
  return simulation;
}

const toolOrder = (simulation: Simulation) => simulation.actions.map((action) => action.next_node);

describe("OfflineModel on the example agents", () => {
  it.each(examples.map((spec) => [spec.id, spec] as const))(
    "%s finishes with a readable answer",
    async (_id, spec) => {
      const simulation = await simulate(spec);
      expect(simulation.answer).toBeDefined();
      expect(simulation.answer).not.toMatch(/^\s*[[{]/);
      expect(simulation.answer).not.toMatch(/[{[]\s*"[^"]*"\s*:/);
      expect(simulation.actions.length).toBeLessThanOrEqual(spec.planner.maxIters);
    },
  );

  it("follows ordering hints and order edges (support-triage)", async () => {
    const simulation = await simulate(example("support-triage"));
    expect(toolOrder(simulation)).toEqual(["triage", "retrieve_docs", "summarize", "final_response"]);
    expect(simulation.actions[1]?.args).toEqual({
      topic: "billing",
      query: "My invoice shows a duplicate charge for March",
      k: 3,
    });
    expect(simulation.answer).toContain("Duplicate billing charges are reversed automatically");
  });

  it("runs a parallel group with its join, then the brief (sharded-research)", async () => {
    const simulation = await simulate(example("sharded-research"));
    expect(toolOrder(simulation)).toEqual(["parallel", "write_brief", "final_response"]);
    expect(simulation.actions[0]?.args).toEqual({
      steps: ["search_web", "search_papers", "search_news"].map((node) => ({
        node,
        args: { topic: "What changed in battery recycling in 2026?", limit: 3 },
      })),
      join: { node: "merge_results", args: {}, inject: { results: "$results", expect: "$expect" } },
    });
    expect(simulation.actions[1]?.args.merged).toHaveLength(3);
    expect(simulation.answer).toMatch(/^Brief on What changed in battery recycling/);
  });

  it("walks auto-seq edges, filling typed args from the previous observation (document-pipeline)", async () => {
    const simulation = await simulate(example("document-pipeline"));
    expect(toolOrder(simulation)).toEqual([
      "triage_query",
      "initialize_document_workflow",
      "parse_documents",
      "extract_metadata",
      "generate_summary",
      "final_response",
    ]);
    expect(simulation.actions[1]?.args).toEqual({
      query: { text: "Summarize the contracts in the Q3 document folder" },
      route: "documents",
      confidence: 0.9,
    });
    expect(simulation.answer).toContain("between Acme Corp and Globex");
  });

  it("re-plans from live_search onto cached_index after the timeout (cached-retrieval)", async () => {
    const simulation = await simulate(example("cached-retrieval"));
    expect(toolOrder(simulation)).toEqual(["live_search", "cached_index", "summarize", "final_response"]);
    expect(
      simulation.chunks.some((chunk) => chunk.reasoning?.includes("re-planning onto cached_index")),
    ).toBe(true);
    expect(simulation.answer).toContain("annual plans are refundable pro rata");
    expect(simulation.answer).toContain("live_search failed");
    expect(simulation.answer).toContain("cached_index was used instead");
  });

  it("names the recipient from the query and drafts before sending (email-approval)", async () => {
    const simulation = await simulate(example("email-approval"), {
      query: "Tell Sam the launch moved to Thursday",
    });
    expect(toolOrder(simulation)).toEqual(["lookup_contact", "draft_email", "send_email", "final_response"]);
    expect(simulation.actions[0]?.args).toEqual({ name: "Sam" });
    expect(simulation.actions[2]?.args).toMatchObject({
      subject: "Quick update",
      to: "dana.reyes@example.com",
    });
    expect(simulation.answer).toContain("send_email returned sent: yes");
  });

  it("does not try again after a rejected approval, and says so", async () => {
    const simulation = await simulate(example("email-approval"), { reject: ["send_email"] });
    expect(toolOrder(simulation)).toEqual(["lookup_contact", "draft_email", "send_email", "final_response"]);
    expect(simulation.answer).toContain("send_email was not run: its approval was rejected.");
    expect(simulation.actions.at(-1)?.args.requires_followup).toBe(true);
  });

  it("reads a tool error that says denied or rejected as an error, not as a refused approval", async () => {
    const simulation = await simulate(example("email-approval"), {
      fail: {
        send_email: { code: "tool_error", message: "Access denied: the mail relay rejected the sender" },
      },
    });
    expect(simulation.answer).not.toContain("approval was rejected");
    expect(simulation.answer).toMatch(/send_email/);
    expect(simulation.answer).toMatch(/Access denied|failed/);
  });

  it("keeps a todo list when todos are enabled: the plan first, statuses as it goes", async () => {
    const spec = example("support-triage");
    const simulation = await simulate(spec, { todos: true, maxIters: 12 });
    expect(toolOrder(simulation)[0]).toBe("write_todos");
    expect(toolOrder(simulation).filter((node) => node !== "write_todos")).toEqual([
      "triage",
      "retrieve_docs",
      "summarize",
      "final_response",
    ]);
    const [first] = simulation.todoRevisions;
    expect(first?.map((todo) => todo.status)).toEqual(["in_progress", "pending", "pending", "pending"]);
    expect(simulation.todoRevisions.at(-1)?.every((todo) => todo.status === "completed")).toBe(true);
    for (let index = 1; index < simulation.actions.length; index += 1) {
      const pair = [simulation.actions[index - 1]?.next_node, simulation.actions[index]?.next_node];
      expect(pair).not.toEqual(["write_todos", "write_todos"]);
    }
  });

  it("skips todo updates the iteration budget cannot afford", async () => {
    const simulation = await simulate(example("support-triage"), { todos: true });
    expect(simulation.answer).toBeDefined();
    expect(simulation.actions.length).toBeLessThanOrEqual(8);
  });

  it("streams the final answer in several content deltas, after a reason on the thinking channel", async () => {
    const simulation = await simulate(example("support-triage"));
    const final = simulation.chunks.slice(
      simulation.chunks.findLastIndex((chunk) => chunk.reasoning !== undefined),
    );
    expect(final[0]?.reasoning).toMatch(/^Offline planner: /);
    expect(final.filter((chunk) => chunk.content !== undefined).length).toBeGreaterThan(3);
  });
});

describe("OfflineModel as a client", () => {
  it("says what it is", () => {
    const model = new OfflineModel();
    expect([model.provider, model.model, model.offline]).toEqual(["offline", "offline", true]);
  });

  it("refuses a planning call without a planner view, saying what to do", async () => {
    const error: unknown = await new OfflineModel()
      .complete({ messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(isLlmError(error, "invalid_request")).toBe(true);
    expect((error as Error).message).toContain("plannerView");
  });

  it("answers router and summarizer calls with valid JSON", async () => {
    const model = new OfflineModel();
    const route = await model.complete({ messages: [{ role: "user", content: "route" }], purpose: "route" });
    expect(JSON.parse(route.content)).toEqual({ effort: "low" });
    // A whole reply, as an endpoint says it (traces show it as gen_ai.response.finish_reasons).
    expect(route.finishReason).toBe("stop");
    const draft = {
      goals: ["find the refund policy"],
      facts: { docs: "x".repeat(3000) },
      pending: ["summarize"],
      last_output_digest: "docs found",
    };
    const summary = await model.complete({
      purpose: "summarize",
      messages: [
        { role: "system", content: "Compress. The whole reply must fit in 600 characters." },
        { role: "user", content: JSON.stringify(draft) },
      ],
    });
    expect(summary.content.length).toBeLessThanOrEqual(600);
    expect(JSON.parse(summary.content)).toMatchObject({
      goals: ["find the refund policy"],
      pending: ["summarize"],
    });
  });

  it("answers repair and arg-fill calls about the refused action in the conversation", async () => {
    const tools = [
      {
        name: "count",
        desc: "",
        sideEffects: "pure" as const,
        tags: [],
        outSchema: {},
        autoSeq: false,
        requiresApproval: false,
        argsSchema: {
          type: "object",
          properties: { n: { type: "integer" }, label: { type: "string" } },
          required: ["n"],
        },
      },
    ];
    const view: PlannerView = {
      query: "count things",
      tools,
      hints: example("support-triage").hints,
      edges: [],
      groups: [],
      steps: [],
      todos: { enabled: false, items: [] },
      tasksEnabled: false,
      iteration: 0,
      maxIters: 8,
      lastError: { code: "invalid_args", message: "n: Invalid input: expected number" },
    };
    const refused = JSON.stringify({ next_node: "count", args: { label: "x" } });
    const messages = [
      { role: "user" as const, content: "count things" },
      { role: "assistant" as const, content: refused },
      { role: "user" as const, content: "n is required" },
    ];
    const model = new OfflineModel({ chunkDelayMs: 0 });
    const repair = await model.complete({ messages, plannerView: view, purpose: "repair" });
    expect(JSON.parse(repair.content)).toEqual({ next_node: "count", args: { n: 0 } });
    const argFill = await model.complete({ messages, plannerView: view, purpose: "arg_fill" });
    expect(JSON.parse(argFill.content)).toEqual({ n: 0 });
    const cut = [messages[0], { role: "assistant" as const, content: refused.slice(0, 30) }, messages[2]];
    const fromTruncated = await model.complete({
      messages: cut as typeof messages,
      plannerView: view,
      purpose: "repair",
    });
    expect(JSON.parse(fromTruncated.content).next_node).toBe("count");
  });

  it("stops streaming when cancelled", async () => {
    const controller = new AbortController();
    const spec = example("support-triage");
    const view: PlannerView = {
      query: "q",
      tools: spec.tools,
      hints: spec.hints,
      edges: spec.edges,
      groups: spec.groups,
      steps: [],
      todos: { enabled: false, items: [] },
      tasksEnabled: false,
      iteration: 7,
      maxIters: 8,
    };
    const model = new OfflineModel({ chunkSize: 4, chunkDelayMs: 5 });
    let chunks = 0;
    const promise = model.complete({
      messages: [],
      plannerView: view,
      stream: true,
      signal: controller.signal,
      onChunk: () => {
        chunks += 1;
        if (chunks === 3) controller.abort();
      },
    });
    await expect(promise).rejects.toMatchObject({ code: "cancelled" });
    expect(chunks).toBeLessThan(5);
  });
});
