import { getRecordedSteps, getRecordPrefix, type CallRecord, type TrajectoryStep } from "@waddle/planner";
import { addLlmCallUsage, type ForkRunRequest, type RunEvent, type RunRecord } from "@waddle/protocol";
import { ApiError, notFound } from "../shared/api-error.js";
import { EMPTY_USAGE, type EventEntry, type WaddleStore } from "../store/waddle-store.js";
import type { PlannerFactory } from "./planner-factory.js";
import { getToolContextKeys } from "./run-tool-contexts.js";

/** What a fork needs of the run service: queueing a run it created with its prefix. */
export interface ForkQueue {
  queueCreated(run: { runId: string; lastSeq: number; toolContext?: Record<string, unknown> }): Promise<void>;
}

/**
 * `POST /api/runs/:id/fork`: checks the request against the parent (status, version, step range, record,
 * edit), creates the fork `queued` with `forkOf` and its work, copies the parent's events before the fork
 * point (`replayed: true`) and their records, then queues it. The job continues it (`runJob`'s fork).
 */
export class ForkService {
  constructor(
    private readonly options: {
      store: WaddleStore;
      runs: ForkQueue;
      createPlanner: PlannerFactory;
      leaseMs: number;
      /** A new run id (`createRunId`). */
      createRunId: () => string;
    },
  ) {}

  async fork(parentId: string, request: ForkRunRequest): Promise<{ runId: string }> {
    const { store } = this.options;
    const parent = await store.getRun(parentId);
    if (!parent) throw notFound("Run", parentId);
    if (parent.status === "queued" || parent.status === "running") {
      throw new ApiError(
        "conflict",
        `Run "${parentId}" is still ${parent.status}: fork it once it has paused or ended.`,
        { reason: "run_active", status: parent.status },
      );
    }
    const version = request.agentVersion ?? parent.agentVersion;
    const agent = await store.getAgentVersion(parent.agentId, version);
    if (!agent) {
      throw new ApiError(
        "not_found",
        `Agent "${parent.agentId}" version ${version} no longer exists: fork on another version (agentVersion).`,
        { reason: "version_deleted", agentId: parent.agentId, version },
      );
    }
    const events = await store.listEvents(parentId);
    const { fromStep, edit } = request;
    const lastStep = events.reduce((max, event) => Math.max(max, event.step), 0);
    if (fromStep > lastStep) {
      throw new ApiError(
        "invalid_fork",
        `fromStep ${fromStep} is outside run "${parentId}"'s steps: pick one of 0–${lastStep}.`,
        { reason: "step_out_of_range", steps: { first: 0, last: lastStep } },
      );
    }
    const records = await store.callRecords.list(parentId);
    const prefixRecords = await this.getPrefixRecords({ parent, records, fromStep });
    const runId = this.options.createRunId();
    const { planner } = await this.options.createPlanner({ spec: agent.spec, runId, agentVersion: version });
    const check = planner.checkForkEdit?.({
      fromStep,
      ...(edit ? { edit } : {}),
      records: [...prefixRecords, ...records],
    });
    if (check && !check.ok) {
      throw new ApiError("invalid_fork", check.message, {
        reason: check.reason,
        ...(check.issues ? { issues: check.issues } : {}),
      });
    }
    const toolContextKeys = getToolContextKeys(request.toolContext);
    await store.createRun({
      id: runId,
      agentId: parent.agentId,
      agentVersion: version,
      query: edit?.kind === "query" ? edit.value : parent.query,
      status: "queued",
      leaseMs: this.options.leaseMs,
      origin: { forkOf: { runId: parentId, step: fromStep } },
      work: {
        fork: { parentRunId: parentId, fromStep, reuse: request.reuse, ...(edit ? { edit } : {}) },
      },
      ...(toolContextKeys ? { toolContextKeys } : {}),
    });
    const prefix = copyPrefix(events, { fromStep, runId });
    if (prefix.length > 0) await store.appendEvents(prefix);
    await store.callRecords.append(runId, prefixRecords);
    await this.options.runs.queueCreated({
      runId,
      lastSeq: prefix.length,
      ...(request.toolContext ? { toolContext: request.toolContext } : {}),
    });
    return { runId };
  }

  /**
   * The parent's records before the fork point, complete: from its own record, else (a run recorded
   * before records existed, in queue mode) from its last checkpoint's trajectory.
   */
  private async getPrefixRecords(input: {
    parent: RunRecord;
    records: readonly CallRecord[];
    fromStep: number;
  }): Promise<CallRecord[]> {
    const { parent, records, fromStep } = input;
    const prefix = getRecordPrefix(records, fromStep);
    if (isComplete(prefix, fromStep)) return prefix;
    const checkpoint = await this.options.store.loadCheckpoint(parent.id);
    const steps = (checkpoint?.state as { steps?: TrajectoryStep[] } | undefined)?.steps ?? [];
    const fromCheckpoint: CallRecord[] = steps
      .filter((step) => step.index < fromStep)
      .map((step) => ({ kind: "step", step }));
    if (isComplete(fromCheckpoint, fromStep)) return fromCheckpoint;
    throw new ApiError(
      "invalid_fork",
      `Run "${parent.id}" has no record of its steps before step ${fromStep} (it ran before runs were recorded): fork it from step 0.`,
      { reason: "not_recorded" },
    );
  }
}

function isComplete(records: readonly CallRecord[], fromStep: number): boolean {
  const steps = getRecordedSteps(records);
  for (let index = 0; index < fromStep; index += 1) if (steps[index] === undefined) return false;
  return true;
}

/**
 * The parent's events before `fromStep`, as the fork's first ones: renumbered from 1, `replayed`, their
 * times moved to end now with their spacing kept (a step's duration reads as the parent's, and the fork's
 * own events follow without a gap of however long ago the parent ran).
 */
function copyPrefix(events: readonly RunEvent[], at: { fromStep: number; runId: string }): EventEntry[] {
  const prefix = events.filter((event) => event.step < at.fromStep);
  const shift = Date.now() - (prefix.at(-1)?.ts ?? 0);
  const copied = prefix.map((event, index): RunEvent => ({
    ...event,
    runId: at.runId,
    seq: index + 1,
    ts: Math.max(0, event.ts + shift),
    replayed: true,
  }));
  let usage = EMPTY_USAGE;
  for (const event of copied) if (event.type === "llm_call") usage = addLlmCallUsage(usage, event.data);
  return copied.map((event, index) =>
    index === copied.length - 1 ? { event, options: { run: { usage } } } : { event },
  );
}
