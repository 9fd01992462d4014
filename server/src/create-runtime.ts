import { existsSync } from "node:fs";
import type { AgentSpec } from "@waddle/protocol";
import { getRequestActorName } from "./access/get-request-actor-name.js";
import { loadExampleAgents } from "./agents/load-example-agents.js";
import type { LiveRunSettings } from "./credentials/credential-vault.js";
import type { RunSetup } from "./run-setup.js";
import { createDefaultPlannerFactory } from "./runs/default-planner-factory.js";
import { createTestCasePlannerFactory, TestCaseRegistry } from "./agent-tests/test-case-planner-factory.js";
import type { PlannerFactory } from "./runs/planner-factory.js";
import { RunEventHub } from "./runs/run-event-hub.js";
import { RunManager } from "./runs/run-manager.js";
import type { RunObserver } from "./runs/run-observer.js";
import type { RunService, RunTraceFactory } from "./runs/run-service.js";
import type { TaskHostSource } from "./runs/run-executor.js";
import { QueueMode, type QueueRole } from "./scale/queue-mode.js";
import type { WaddleStore } from "./store/waddle-store.js";

export interface RuntimeOptions {
  /** Where LLM keys are read: without OPENAI_API_KEY, runs use the offline model by default. */
  env: NodeJS.ProcessEnv;
  store: WaddleStore;
  /** What every run needs besides the store (`createRunSetup`, from the same `env`). */
  setup: RunSetup;
  /** Example agents saved into a store that holds none; null or a missing folder for none. */
  exampleAgentsDir?: string | null;
  /** Builds each run's planner; the default uses ReactPlanner with the server's tool kinds. */
  createPlanner?: PlannerFactory;
  /** Runs executing at once in this process (default 4). */
  maxConcurrentRuns?: number;
  /** Queue mode (`WADDLE_REDIS_URL`): runs are BullMQ jobs for the workers of every instance. */
  queue?: { redisUrl: string; role: QueueRole; leaseMs: number };
  /** Sessions: the task host of a turn's run (late-bound by the caller). */
  taskHosts?: TaskHostSource;
  /** Stored credentials and allow-list entries, read as each run starts (`CredentialVault`). */
  getRunSettings?: () => Promise<LiveRunSettings>;
  /** Sees every event this process records (traces, metrics). */
  observer?: RunObserver;
  /** Tracing on: the trace context each new run keeps. */
  createRunTrace?: RunTraceFactory;
}

/** What runs runs, for the server and for the CLI's in-process runs. */
export interface Runtime {
  runs: RunService;
  /** Every stored event and status change of the runs readers may follow. */
  hub: RunEventHub;
  /** True when runs use the embedded offline model by default (no OPENAI_API_KEY). */
  offline: boolean;
  /** Set in queue mode. */
  queueMode?: QueueMode;
  /** The cases of the test runs this process runs, for the planner factory to serve their mocks. */
  testCases: TestCaseRegistry;
  /** The planner factory runs are built with (shadow comparisons build their candidates with it too). */
  createPlanner: PlannerFactory;
}

/**
 * The run service over a store, built one way for `createWaddleServer` and for the CLI: example agents
 * loaded, the planner factory, the spec check (LLM endpoints, key variables and MCP servers the setup
 * allows; 422 otherwise), and the in-process queue, or BullMQ with `queue`. Closing is the caller's:
 * `runs.close()` first, then `queueMode.close()`, the setup's MCP servers and the store.
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { store, setup } = options;
  const { logger, redactor } = setup;
  const agentsDir = options.exampleAgentsDir;
  if (agentsDir && existsSync(agentsDir)) {
    const loaded = await loadExampleAgents({ store, dir: agentsDir, logger });
    if (loaded.length > 0) logger.info("example agents loaded", { agents: loaded });
  }
  const testCases = new TestCaseRegistry();
  const { getRunSettings } = options;
  const createPlanner = createTestCasePlannerFactory({
    base:
      options.createPlanner ??
      createDefaultPlannerFactory({ ...setup, store, ...(getRunSettings ? { getRunSettings } : {}) }),
    store,
    registry: testCases,
  });
  const checkSpec = async (spec: AgentSpec, check?: { offline?: boolean }) => {
    if (!check?.offline) {
      const policy = getRunSettings ? (await getRunSettings()).llmPolicy : setup.llmPolicy;
      policy.assertSpec(spec);
    }
    setup.mcp.assertSpec(spec);
  };
  const maxConcurrentRuns = options.maxConcurrentRuns ?? 4;
  const observed = {
    ...(options.observer ? { observer: options.observer } : {}),
    ...(options.createRunTrace ? { createRunTrace: options.createRunTrace } : {}),
    // Who started each run, for the inbox (a key's name; none for the local user).
    getStartedBy: getRequestActorName,
  };
  const offline = !options.env.OPENAI_API_KEY;
  if (options.queue) {
    const queueMode = new QueueMode({
      ...options.queue,
      store,
      createPlanner,
      redactor,
      logger,
      maxConcurrentRuns,
      checkSpec,
      ...(options.taskHosts ? { taskHosts: options.taskHosts } : {}),
      ...observed,
    });
    return { runs: queueMode.runs, hub: queueMode.hub, offline, queueMode, testCases, createPlanner };
  }
  const hub = new RunEventHub();
  const runs = new RunManager({
    store,
    hub,
    createPlanner,
    redactor,
    logger,
    maxConcurrentRuns,
    checkSpec,
    ...(options.taskHosts ? { taskHosts: options.taskHosts } : {}),
    ...observed,
  });
  return { runs, hub, offline, testCases, createPlanner };
}
