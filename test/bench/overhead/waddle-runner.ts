import { buildCatalog, defineTool, ReactPlanner, type LlmClient, type LlmResult } from "@waddle/planner";
import type { RunEvent } from "@waddle/protocol";
import { z } from "zod";
import { createJsonReplies, InstantReplies } from "./bare-loop.js";
import { NOOP_TOOLS, type ScriptedStep } from "./overhead-tools.js";

/** An LlmClient that answers instantly from a script (no copies of the messages, no usage estimate). */
export class InstantClient implements LlmClient {
  readonly provider = "bench";
  readonly model = "instant";
  constructor(private readonly replies: InstantReplies) {}

  complete(): Promise<LlmResult> {
    return Promise.resolve({ content: this.replies.next() });
  }
}

const Observation = z.object({ ok: z.literal(true), tool: z.string(), fields: z.int() });

/** What one Waddle run saw, for checks: events by type and the finish reason. */
export interface WaddleRunStats {
  events: number;
  toolEnds: number;
  reason: string;
}

/**
 * ReactPlanner with the five no-op tools and, by default, events on (an onEvent that consumes each
 * event); `events: false` runs without a listener, for comparison.
 */
export function createWaddleRunner(
  trajectory: readonly ScriptedStep[],
  options: { events?: boolean } = {},
): () => Promise<WaddleRunStats> {
  const listen = options.events ?? true;
  const replies = new InstantReplies(createJsonReplies(trajectory));
  const tools = NOOP_TOOLS.map((tool) =>
    defineTool({
      name: tool.name,
      desc: tool.description,
      args: tool.args,
      out: Observation,
      sideEffects: "pure",
      run: (args) => tool.run(args),
    }),
  );
  const planner = new ReactPlanner({
    llm: new InstantClient(replies),
    catalog: buildCatalog({ tools }),
    options: { maxIters: trajectory.length + 5 },
  });
  // One listener for every run (reset before each): a closure per run would be timed as Waddle's cost,
  // and tsx adds a `__name` call to each one it creates.
  const counts = { events: 0, toolEnds: 0 };
  const onEvent = (event: RunEvent) => {
    counts.events += 1;
    if (event.type === "tool_end") counts.toolEnds += 1;
  };
  const runOptions = listen ? { onEvent } : {};
  return async () => {
    replies.reset();
    counts.events = 0;
    counts.toolEnds = 0;
    const outcome = await planner.run("Run the scripted trajectory.", runOptions);
    const ran = outcome.kind === "finish" ? outcome.metadata.steps : -1;
    return { events: counts.events, toolEnds: listen ? counts.toolEnds : ran, reason: outcome.reason };
  };
}
