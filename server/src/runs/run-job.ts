import { isPlannerError, type BackgroundJob, type PlannerOutcome, type TaskHost } from "@waddle/planner";
import type { ResumeRequest, RunRecord } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import type { ForkWork, WaddleStore } from "../store/waddle-store.js";
import { getClientKey, prepareFork, RunCallRecords } from "./run-call-records.js";
import type { PlannerFactory } from "./planner-factory.js";
import { getOutcomePatch } from "./run-outcome-events.js";
import type { RunRecorder } from "./run-recorder.js";
import { withApprovalDeadline } from "./with-approval-deadline.js";

/** A background task's run: its job from the start, or continued after its worker stopped. */
function runTaskJob(
  planner: Awaited<ReturnType<PlannerFactory>>["planner"],
  job: BackgroundJob,
  input: {
    common: { toolContext: Record<string, unknown>; signal: AbortSignal; onEvent: RunRecorder["sink"] };
    runId: string;
    recovery?: { checkpoint: unknown; lastSeq: number };
  },
): Promise<PlannerOutcome> {
  if (!planner.runTask || !planner.recoverTask) {
    throw new ApiError("invalid_state", "This server's planner cannot run background tasks as runs.");
  }
  const { common, recovery } = input;
  return recovery
    ? planner.recoverTask(job, recovery.checkpoint, { ...common, lastSeq: recovery.lastSeq })
    : planner.runTask(job, { ...common, runId: input.runId });
}

/**
 * One turn of a run: builds its planner from the exact agent version it runs, marks it running, runs the
 * query or resumes it with the decision, and records the outcome the planner's events did not already
 * record. Throws what the planner or the factory throws; the run executor turns that into the run's end.
 */
export async function runJob(options: {
  run: RunRecord;
  /** `actor`: who decided; written into the planner's `resumed` event. */
  resume: (ResumeRequest & { actor?: string }) | undefined;
  /** The planner's `contextMeta` of a new run (a resumed run has it in its saved state). */
  contextMeta?: Record<string, unknown>;
  /** A new run's own answer schema (a resumed run has it in its saved state). */
  answerSchema?: Record<string, unknown>;
  recorder: RunRecorder;
  signal: AbortSignal;
  toolContext: Readonly<Record<string, unknown>>;
  store: WaddleStore;
  createPlanner: PlannerFactory;
  logger: Logger;
  /** The epoch of the executor's claim, for the paused states it saves. */
  fence?: number;
  /** Queue mode: the planner's checkpoints are stored, so that another worker can continue the run. */
  checkpoints?: boolean;
  /**
   * Queue mode: the run's last worker stopped mid-run; it continues from `checkpoint` (when it made one),
   * after the `lastSeq` events stored.
   */
  recovery?: { checkpoint: unknown; lastSeq: number };
  /** A session's background task: the run runs this job (`runTask`) instead of its query. */
  task?: BackgroundJob;
  /** A session's turn: its background tasks run as runs of their own and outlive it. */
  taskHost?: TaskHost;
  /** A fork's first start: continue the parent's record from the fork point (`ForkService`). */
  fork?: ForkWork;
}): Promise<void> {
  const { run, resume, recorder } = options;
  const agent = await options.store.getAgentVersion(run.agentId, run.agentVersion);
  if (!agent)
    throw new ApiError("not_found", `Agent "${run.agentId}" version ${run.agentVersion} no longer exists.`);
  const { planner, offline } = await options.createPlanner({
    spec: agent.spec,
    runId: run.id,
    agentVersion: agent.version,
    ...(options.fence === undefined ? {} : { fence: options.fence }),
    // The person chose the offline model when starting the run: its resumes stay on it.
    ...(run.offlineChosen ? { offline: true } : {}),
  });
  options.logger.info(resume ? "run resumed" : "run started", {
    runId: run.id,
    agent: `${run.agentId}@${run.agentVersion}`,
    model: offline ? "offline" : `${agent.spec.llm.provider}/${agent.spec.llm.model}`,
  });
  const { recovery } = options;
  await recorder.patch({
    status: "running",
    offline,
    ...(resume || recovery ? {} : { startedAt: new Date().toISOString() }),
  });
  const callRecords = new RunCallRecords({
    store: options.store,
    runId: run.id,
    logger: options.logger,
    redact: (value) => recorder.redact(value),
  });
  const clientKey = getClientKey(agent.spec);
  const common = {
    toolContext: { ...options.toolContext },
    signal: options.signal,
    onEvent: withApprovalDeadline(
      resume?.actor === undefined ? recorder.sink : withDecider(recorder.sink, resume.actor),
      agent.spec,
    ),
    ...(options.checkpoints ? { onCheckpoint: recorder.checkpointSink } : {}),
    ...(options.taskHost ? { taskHost: options.taskHost } : {}),
    calls: { record: callRecords.sink, clientKey },
  };
  const fork =
    options.fork && !recovery && !resume && planner.fork
      ? await prepareFork({ store: options.store, run, spec: agent.spec, work: options.fork })
      : undefined;
  let outcome;
  try {
    outcome = options.task
      ? await runTaskJob(planner, options.task, {
          common,
          runId: run.id,
          ...(recovery ? { recovery } : {}),
        })
      : fork && planner.fork
        ? await planner.fork(fork.fork, {
            ...common,
            runId: run.id,
            calls: { ...common.calls, ...(fork.replay ? { replay: fork.replay } : {}) },
          })
        : recovery?.checkpoint && planner.recover
          ? await planner.recover(recovery.checkpoint, { ...common, lastSeq: recovery.lastSeq })
          : resume
            ? await planner.resume(resume.resumeToken, {
                ...common,
                decision: resume.decision,
                ...(resume.args ? { args: resume.args } : {}),
                ...(resume.userInput !== undefined ? { userInput: resume.userInput } : {}),
              })
            : await planner.run(run.query, {
                ...common,
                runId: run.id,
                ...(options.contextMeta ? { contextMeta: options.contextMeta } : {}),
                ...(options.answerSchema ? { answerSchema: options.answerSchema } : {}),
              });
  } catch (error) {
    if (!resume || !isPlannerError(error) || error.code !== "invalid_resume") throw error;
    // Refused before the token was spent (e.g. edited args that fail the tool's schema): the pause stands
    // and can be answered again, so the run goes back to paused with the refusal as its error.
    options.logger.info("resume refused", { runId: run.id, message: error.message });
    await recorder.patch({ status: "paused", error: { code: error.code, message: error.message } });
    return;
  } finally {
    await callRecords.flush();
  }
  await recorder.flush();
  if (recorder.isSealed && outcome.kind === "finish") return;
  // The planner's own events normally set these; this covers one that returned without them.
  await recorder.patch(getOutcomePatch(outcome, recorder.recordedPause));
}

/** The sink with the decider's name added to the `resumed` event (the planner does not know who decided). */
function withDecider(sink: RunRecorder["sink"], actor: string): RunRecorder["sink"] {
  return (event) =>
    sink(event.type === "resumed" ? ({ ...event, data: { ...event.data, actor } } as typeof event) : event);
}
