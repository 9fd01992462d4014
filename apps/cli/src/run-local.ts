import { TERMINAL_RUN_STATUSES, type AgentSpec, type RunStatus } from "@waddle/protocol";
import {
  createDefaultPlannerFactory,
  createLogger,
  createRunSetup,
  loadExampleAgents,
  MemoryStore,
  readRunSettings,
  RunEventHub,
  RunManager,
} from "@waddle/server";
import path from "node:path";
import { EXAMPLES_DIR } from "./agent-source.js";
import type { CliIo } from "./cli-io.js";
import { decidePause } from "./decide-pause.js";
import { EventPrinter } from "./event-printer.js";

export interface RunLocalOptions {
  spec: AgentSpec;
  query: string;
  io: CliIo;
  decision?: "approve" | "reject";
  /** Secrets and opaque values for the agent's tools (`--tool-context`). */
  toolContext?: Record<string, unknown>;
}

/**
 * Runs an agent in this process with the server's own run manager over an in-memory store (the example
 * agents are there too, for agent tools), printing events as they are recorded. Tools, secrets, the LLM
 * endpoint policy, the http allow-list, prices and MCP servers come from the environment exactly as the
 * server reads them (`readRunSettings`, `createRunSetup`): an agent file is data, and may not send a key
 * elsewhere.
 */
export async function runLocal(options: RunLocalOptions): Promise<number> {
  const { io, spec } = options;
  const env = io.env as NodeJS.ProcessEnv;
  const setup = await createRunSetup({
    env,
    settings: readRunSettings(env, io.cwd),
    exampleToolsDir: path.join(EXAMPLES_DIR, "tools"),
    logger: createLogger({ level: "silent" }),
  });
  const { logger, redactor } = setup;
  const store = new MemoryStore();
  await loadExampleAgents({ store, dir: path.join(EXAMPLES_DIR, "agents"), logger });
  const existing = await store.getAgent(spec.id);
  if (!existing) await store.createAgent({ spec });
  else if (JSON.stringify(existing.spec) !== JSON.stringify(spec)) {
    await store.updateAgent({ id: spec.id, spec, baseVersion: existing.version });
  }
  const hub = new RunEventHub();
  const manager = new RunManager({
    store,
    hub,
    redactor,
    logger,
    maxConcurrentRuns: 1,
    createPlanner: createDefaultPlannerFactory({ ...setup, store }),
    checkSpec: (checked) => {
      setup.llmPolicy.assertSpec(checked);
      setup.mcp.assertSpec(checked);
    },
  });
  const printer = new EventPrinter({
    write: (text) => io.stdout.write(text),
    isTty: io.stdout.isTTY === true,
  });
  const statuses: RunStatus[] = [];
  let wake: (() => void) | undefined;
  let runId = "";
  const answered = new Set<string>();
  hub.onStatus((message) => {
    if (message.runId !== runId) return;
    statuses.push(message.status);
    wake?.();
  });
  runId = (
    await manager.startRun({
      agentId: spec.id,
      query: options.query,
      ...(options.toolContext ? { toolContext: options.toolContext } : {}),
    })
  ).runId;
  hub.onRunEvent(runId, (event) => printer.print(event));
  try {
    for (;;) {
      const status = statuses.shift();
      if (status === undefined) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (TERMINAL_RUN_STATUSES.has(status)) return status === "finished" ? 0 : 1;
      if (status !== "paused") continue;
      const run = await store.getRun(runId);
      if (!run?.pause || answered.has(run.pause.resumeToken)) continue;
      answered.add(run.pause.resumeToken);
      const decision = await decidePause({
        reason: run.pause.reason,
        payload: run.pause.payload,
        flag: options.decision,
        io,
      });
      if (!decision) {
        printer.finish();
        io.stderr.write(
          "The run is waiting for approval: run again with --approve or --reject (or in a terminal to be asked).\n",
        );
        return 3;
      }
      await manager.resumeRun(runId, { resumeToken: run.pause.resumeToken, ...decision });
    }
  } finally {
    printer.finish();
    await manager.close(1_000);
    await setup.mcp.close();
    await store.close();
  }
}
