import { TERMINAL_RUN_STATUSES, type AgentSpec } from "@waddle/protocol";
import {
  createLogger,
  createRunSetup,
  createRuntime,
  followRun,
  MemoryStore,
  readRunSettings,
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
 * Runs an agent in this process with the server's own runtime (`createRuntime`) over an in-memory store
 * (the example agents are there too, for agent tools), printing events as they are recorded. Tools,
 * secrets, the LLM endpoint policy, the http allow-list, prices and MCP servers come from the environment
 * exactly as the server reads them (`readRunSettings`, `createRunSetup`): an agent file is data, and may not
 * send a key elsewhere.
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
  const store = new MemoryStore();
  const { runs, hub } = await createRuntime({
    env,
    store,
    setup,
    exampleAgentsDir: path.join(EXAMPLES_DIR, "agents"),
    maxConcurrentRuns: 1,
  });
  const printer = new EventPrinter({
    write: (text) => io.stdout.write(text),
    isTty: io.stdout.isTTY === true,
  });
  try {
    const existing = await store.getAgent(spec.id);
    if (!existing) await store.createAgent({ spec });
    else if (JSON.stringify(existing.spec) !== JSON.stringify(spec)) {
      await store.updateAgent({ id: spec.id, spec, baseVersion: existing.version });
    }
    const { runId } = await runs.startRun({
      agentId: spec.id,
      query: options.query,
      ...(options.toolContext ? { toolContext: options.toolContext } : {}),
    });
    let afterSeq = 0;
    const answered = new Set<string>();
    for (;;) {
      const run = await followRun({
        hub,
        store,
        runId,
        afterSeq,
        onEvent: (event) => {
          afterSeq = event.seq;
          printer.print(event);
        },
      });
      if (TERMINAL_RUN_STATUSES.has(run.status)) return run.status === "finished" ? 0 : 1;
      if (!run.pause) return 1;
      if (answered.has(run.pause.resumeToken)) {
        // The planner refused the answer (e.g. edited args that fail the tool's schema): the pause stands.
        printer.finish();
        io.stderr.write(`The run refused the answer: ${run.error?.message ?? "unknown reason"}\n`);
        return 3;
      }
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
      await runs.resumeRun(runId, { resumeToken: run.pause.resumeToken, ...decision });
    }
  } finally {
    printer.finish();
    await runs.close(1_000);
    await setup.mcp.close();
    await store.close();
  }
}
