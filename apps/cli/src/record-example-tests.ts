// Records the example agents' test suites from offline runs: `npx tsx --conditions source
// apps/cli/src/record-example-tests.ts [agent-id …]`. Each query runs on the offline model in this process, is saved as
// a case the way "Save as test" saves it, and the suite is written beside the agent as <id>.tests.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { listExampleAgentFiles } from "@waddle/examples";
import { TERMINAL_RUN_STATUSES, type AgentSpec, type TestCase } from "@waddle/protocol";
import {
  createLogger,
  createRunSetup,
  createRuntime,
  MemoryStore,
  readRunSettings,
  TestRunService,
} from "@waddle/server";
import { EXAMPLES_DIR } from "./agent-source.js";

/** A third query per agent, besides its two sample queries. */
const EXTRA_QUERIES: Readonly<Record<string, string>> = {
  "cached-retrieval": "How long are invoices kept?",
  "document-pipeline": "Extract the metadata of the onboarding handbook",
  "email-approval": "Let Priya know the budget was approved",
  "guarded-helpdesk": "Is customer 42's card still on file?",
  "sharded-research": "What is new in solid-state batteries?",
  "support-triage": "The app crashes when I upload a photo",
  "writing-review": "Review this: We shipped dark mode. It follows the system setting.",
};

/**
 * Agents whose sample queries do not make good cases: a case is one run, and background-research's first
 * sample spawns a sub-agent task whose own model calls a recorded run does not hold.
 */
const QUERIES: Readonly<Record<string, readonly string[]>> = {
  "background-research": [
    "Research the market for cargo bikes",
    "What did the research find?",
    "Summarize what is known about cargo bikes",
  ],
};

const agentsDir = path.join(EXAMPLES_DIR, "agents");
const env = { ...process.env, OPENAI_API_KEY: "" } as NodeJS.ProcessEnv;
const logger = createLogger({ level: "silent" });
const setup = await createRunSetup({
  env,
  settings: readRunSettings(env, process.cwd()),
  exampleToolsDir: path.join(EXAMPLES_DIR, "tools"),
  logger,
});
const store = new MemoryStore();
const runtime = await createRuntime({ env, store, setup, exampleAgentsDir: agentsDir, maxConcurrentRuns: 1 });
const tests = new TestRunService({
  store,
  runs: runtime.runs,
  hub: runtime.hub,
  registry: runtime.testCases,
  logger,
});

const waitForEnd = (runId: string) =>
  new Promise<void>((resolve) => {
    const check = async () => {
      const run = await store.getRun(runId);
      if (run && (TERMINAL_RUN_STATUSES.has(run.status) || run.status === "paused")) {
        stop();
        resolve();
      }
    };
    const stop = runtime.hub.onStatus((message) => {
      if (message.runId === runId) void check();
    });
    void check();
  });

// Agent ids on the command line record only those suites; none records them all.
const only = new Set(process.argv.slice(2));
for (const { id } of listExampleAgentFiles(agentsDir)) {
  if (only.size > 0 && !only.has(id)) continue;
  const agent = await store.getAgent(id);
  if (!agent) continue;
  const spec: AgentSpec = agent.spec;
  const queries = QUERIES[spec.id] ?? [
    ...(spec.sampleQueries ?? []).slice(0, 2),
    EXTRA_QUERIES[spec.id] ?? "Hello",
  ];
  const cases: TestCase[] = [];
  for (const [index, query] of queries.entries()) {
    const { runId } = await runtime.runs.startRun({ agentId: spec.id, query });
    await waitForEnd(runId);
    const saved = await tests.saveFromRun(spec.id, { fromRunId: runId });
    const { sourceRunId: _sourceRunId, ...rest } = saved;
    cases.push({ ...rest, id: `${spec.id}-${index + 1}` });
  }
  const suite = { version: 1, agentId: spec.id, cases };
  writeFileSync(path.join(agentsDir, `${spec.id}.tests.json`), `${JSON.stringify(suite, null, 2)}\n`);
  console.log(`${spec.id}: ${cases.length} cases`);
}
await runtime.runs.close();
await setup.mcp.close();
await store.close();
