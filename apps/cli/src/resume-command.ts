import { RunRecord } from "@waddle/protocol";
import type { CliIo } from "./cli-io.js";
import { decidePause } from "./decide-pause.js";
import { describeWaitingRun, followRun } from "./follow-run.js";
import { ServerClient } from "./server-client.js";

export interface ResumeCommandOptions {
  runId: string;
  server: string;
  token?: string;
  decision?: "approve" | "reject";
  toolContext?: Record<string, unknown>;
  io: CliIo;
}

/**
 * Answers a run left paused on a server (`waddle resume <run-id> --server URL`): with the flag or a question
 * on the terminal, then follows it from where it paused, answering any later pause the same way.
 */
export async function resumeCommand(options: ResumeCommandOptions): Promise<number> {
  const { io, runId } = options;
  const client = new ServerClient(options.server, options.token);
  const run = RunRecord.parse((await client.request("GET", `/api/runs/${encodeURIComponent(runId)}`)).json);
  if (run.status !== "paused" || !run.pause) {
    io.stderr.write(`Run ${run.id} is ${run.status}, not paused: there is nothing to answer.\n`);
    return 1;
  }
  const { reason, payload, resumeToken } = run.pause;
  const decision = await decidePause({
    reason,
    payload,
    io,
    ...(options.decision ? { flag: options.decision } : {}),
  });
  if (!decision) {
    io.stderr.write(describeWaitingRun({ runId: run.id, resumeToken, baseUrl: client.baseUrl }));
    return 3;
  }
  await client.request("POST", `/api/runs/${encodeURIComponent(run.id)}/resume`, {
    resumeToken,
    ...decision,
    ...(options.toolContext ? { toolContext: options.toolContext } : {}),
  });
  io.stderr.write(`resumed run ${run.id} on ${client.baseUrl} (${decision.decision})\n`);
  return followRun({
    client,
    runId: run.id,
    afterSeq: run.lastSeq ?? 0,
    io,
    ...(options.token ? { token: options.token } : {}),
    ...(options.decision ? { decision: options.decision } : {}),
    ...(options.toolContext ? { toolContext: options.toolContext } : {}),
  });
}
