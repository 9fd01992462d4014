// Records real planner event streams as JSON fixtures for the designer's run tests (the designer may not
// import the planner, even in tests). Run: npx tsx --conditions=source scripts/record-run-fixtures.ts &&
// npx prettier --write designer/src/testing/run-fixtures
import { readFileSync, writeFileSync } from "node:fs";
import { AgentSpec, RunEvent } from "@waddle/protocol";
import { InMemoryStateStore, OfflineModel, ReactPlanner } from "@waddle/planner";
import { ScriptedClient, scriptedReply } from "@waddle/planner/testing";

const OUT = new URL("../designer/src/testing/run-fixtures/", import.meta.url);

function loadAgent(id: string): AgentSpec {
  const url = new URL(`../apps/examples/agents/${id}.json`, import.meta.url);
  return AgentSpec.parse(JSON.parse(readFileSync(url, "utf8")) as unknown);
}

/** Virtual time: the clock moves 7 ms per reading and by every sleep, so runs repeat exactly. */
function createTime() {
  let now = 1_700_000_000_000;
  return {
    clock: () => (now += 7),
    sleep: async (ms: number) => {
      now += ms;
      await Promise.resolve();
    },
  };
}

function createPlanner(spec: AgentSpec, llm: ConstructorParameters<typeof ScriptedClient>[0] | "offline") {
  const time = createTime();
  let id = 0;
  const stateStore = new InMemoryStateStore();
  const client =
    llm === "offline"
      ? new OfflineModel({ chunkSize: 12, chunkDelayMs: 0, sleep: time.sleep })
      : new ScriptedClient(llm, { model: "gpt-test", provider: "openai", offline: false });
  const planner = ReactPlanner.fromSpec(spec, {
    llm: client,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    createId: () => `run-${spec.id}-${(id += 1)}`,
    createResumeToken: () => `token-${(id += 1)}`,
    stateStore,
  });
  return planner;
}

function save(name: string, spec: AgentSpec, events: RunEvent[]): void {
  for (const event of events) RunEvent.parse(event);
  writeFileSync(new URL(`${name}.json`, OUT), `${JSON.stringify({ spec, events }, null, 1)}\n`);
  console.log(`${name}: ${events.length} events`);
}

async function recordOffline(agentId: string, query: string): Promise<void> {
  const spec = loadAgent(agentId);
  const events: RunEvent[] = [];
  await createPlanner(spec, "offline").run(query, { onEvent: (event) => events.push(event) });
  save(agentId, spec, events);
}

async function recordApproval(): Promise<void> {
  const spec = loadAgent("email-approval");
  const events: RunEvent[] = [];
  const planner = createPlanner(spec, "offline");
  const onEvent = (event: RunEvent) => events.push(event);
  const paused = await planner.run("Email Ada that the report is ready", { onEvent });
  if (paused.kind !== "pause") throw new Error("email-approval did not pause");
  const args = { ...(paused.payload.args as Record<string, unknown>), subject: "Edited subject" };
  await planner.resume(paused.resumeToken, { decision: "edit", args, onEvent });
  save("email-approval", spec, events);
}

/** A scripted model: thinking, todos, a retried tool, a failing tool, a repair, a streamed answer. */
async function recordScripted(): Promise<void> {
  const mock = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    desc: `tool ${name}`,
    argsSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    outSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    impl: { kind: "mock", output: { text: "{{args.text}}" }, ...extra },
    retry: { maxAttempts: 2, backoffMs: 100, maxBackoffMs: 100 },
  });
  const spec = AgentSpec.parse({
    version: 1,
    id: "scripted",
    name: "Scripted",
    llm: { provider: "openai", model: "gpt-test" },
    planner: { todos: { enabled: true }, hopBudget: 10 },
    tools: [mock("alpha", { failFirst: 1 }), mock("beta", { failFirst: 5 }), mock("gamma")],
    edges: [
      { id: "alpha-beta", kind: "order", source: "alpha", target: "beta" },
      { id: "beta-gamma", kind: "auto_seq", source: "beta", target: "gamma" },
    ],
  });
  const events: RunEvent[] = [];
  const usage = { promptTokens: 120, completionTokens: 30 };
  const costUsd = 0.0015;
  const planner = createPlanner(spec, [
    scriptedReply(
      {
        next_node: "write_todos",
        args: {
          todos: [
            { id: "1", content: "Call alpha", status: "in_progress" },
            { id: "2", content: "Answer", status: "pending" },
          ],
        },
      },
      { reasoning: "Plan first.", usage, costUsd },
    ),
    scriptedReply({ next_node: "alpha", args: { text: "hello" } }, { usage, costUsd }),
    scriptedReply("this is not json", { usage, costUsd }),
    scriptedReply({ next_node: "beta", args: { text: "x" } }, { usage, costUsd }),
    scriptedReply({ next_node: "gamma", args: { text: "y" } }, { usage, costUsd }),
    scriptedReply(
      { next_node: "final_response", args: { answer: "The answer is hello, streamed in pieces." } },
      { chunkSize: 8, reasoning: "Done now.", usage, costUsd },
    ),
  ]);
  await planner.run("Say hello", { onEvent: (event) => events.push(event) });
  save("scripted", spec, events);
}

/** A parallel plan with a failing branch: the join is skipped; then a hop budget ends the run. */
async function recordParallelFailure(): Promise<void> {
  const mock = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    desc: `tool ${name}`,
    argsSchema: { type: "object", properties: { text: { type: "string" } } },
    outSchema: { type: "object" },
    impl: { kind: "mock", output: { text: "ok" }, ...extra },
    retry: { maxAttempts: 1 },
  });
  const spec = AgentSpec.parse({
    version: 1,
    id: "parallel-failure",
    name: "Parallel failure",
    llm: { provider: "openai", model: "gpt-test" },
    planner: { hopBudget: 4 },
    tools: [mock("start"), mock("left"), mock("right", { failFirst: 1 }), mock("merge"), mock("finish")],
    edges: [{ id: "start-left", kind: "order", source: "start", target: "left" }],
    groups: [
      {
        id: "sides",
        kind: "parallel",
        name: "Both sides",
        members: ["left", "right"],
        join: { tool: "merge", args: {}, inject: {} },
      },
    ],
  });
  const events: RunEvent[] = [];
  const planner = createPlanner(spec, [
    { next_node: "start", args: { text: "go" } },
    {
      next_node: "parallel",
      args: {
        steps: [
          { node: "left", args: { text: "l" } },
          { node: "right", args: { text: "r" } },
        ],
        join: { node: "merge", args: {} },
      },
    },
    { next_node: "finish", args: { text: "f" } },
    { next_node: "finish", args: { text: "again" } },
  ]);
  await planner.run("Fan out", { onEvent: (event) => events.push(event) });
  save("parallel-failure", spec, events);
}

await recordParallelFailure();
await recordOffline("document-pipeline", "Summarize the quarterly reports");
await recordOffline("sharded-research", "Research solid-state batteries");
await recordOffline("support-triage", "My invoice is wrong");
await recordApproval();
await recordScripted();
