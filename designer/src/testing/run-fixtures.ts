import { AgentSpec, RunEvent } from "@waddle/protocol";
import { z } from "zod";
import documentPipeline from "./run-fixtures/document-pipeline.json";
import emailApproval from "./run-fixtures/email-approval.json";
import parallelFailure from "./run-fixtures/parallel-failure.json";
import scripted from "./run-fixtures/scripted.json";
import shardedResearch from "./run-fixtures/sharded-research.json";
import supportTriage from "./run-fixtures/support-triage.json";

/**
 * Event streams recorded from the real planner by `scripts/record-run-fixtures.ts` (the designer may not
 * import the planner, even in tests), with the spec each ran:
 * - `document-pipeline`: offline model, four auto-seq steps in a row;
 * - `sharded-research`: offline model, a parallel group of three with a join, then a tool;
 * - `support-triage`: offline model, three LLM-chosen tools along order edges;
 * - `email-approval`: paused for approval of `send_email`, resumed with edited args, finished;
 * - `scripted`: todos, thinking, a retried tool, a parse repair, a failed tool, a streamed answer, costs;
 * - `parallel-failure`: a failed branch skips the join, then the hop budget ends the run.
 */
const FIXTURES = {
  "document-pipeline": documentPipeline,
  "sharded-research": shardedResearch,
  "support-triage": supportTriage,
  "email-approval": emailApproval,
  scripted,
  "parallel-failure": parallelFailure,
} as const;

export type RunFixtureName = keyof typeof FIXTURES;

const RunFixture = z.object({ spec: AgentSpec, events: z.array(RunEvent) });

/** A recorded run, parsed with the protocol's schemas (a fresh copy on every call). */
export function getRunFixture(name: RunFixtureName): { spec: AgentSpec; events: RunEvent[] } {
  return RunFixture.parse(FIXTURES[name]);
}
