import {
  createRecordedCallMatcher,
  getCanonicalJson,
  type CallRecord,
  type CallReplay,
  type ForkInput,
} from "@waddle/planner";
import { ForkEdit, ForkReuse, type AgentSpec, type RunRecord } from "@waddle/protocol";
import { z } from "zod";
import { ApiError } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import type { ForkWork, WaddleStore } from "../store/waddle-store.js";
import { retryBusyWrite } from "../store/retry-busy-write.js";

/** Records written at once when this many are waiting; the rest when the job ends. */
const FLUSH_AT = 200;

/**
 * Collects a run's call records (the planner's `RunCalls.record`) and appends them to the store in
 * batches, in order. A failed write is logged, never fails the run: a run without a complete record can
 * still be forked from step 0.
 */
export class RunCallRecords {
  private pending: CallRecord[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: {
      store: WaddleStore;
      runId: string;
      logger: Logger;
      /** Redacts secrets before a record is kept (the run recorder's redactor). */
      redact: <T>(value: T) => T;
    },
  ) {}

  readonly sink = (record: CallRecord): void => {
    this.pending.push(this.options.redact(record));
    if (this.pending.length >= FLUSH_AT) void this.flush();
  };

  /** Writes what is waiting, after the writes already under way. */
  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      const { store, runId, logger } = this.options;
      this.writing = this.writing.then(() =>
        retryBusyWrite(() => store.callRecords.append(runId, batch)).catch((error: unknown) => {
          logger.warn("call records not stored", {
            runId,
            error: error instanceof Error ? error.message : String(error),
          });
        }),
      );
    }
    return this.writing;
  }
}

/** Stands for the endpoint and parameters of the model a spec runs: part of each LLM request's key. */
export function getClientKey(spec: AgentSpec): string {
  return getCanonicalJson(spec.llm);
}

const ForkWorkShape = z.object({
  parentRunId: z.string().min(1),
  fromStep: z.int().nonnegative(),
  edit: ForkEdit.optional(),
  reuse: ForkReuse,
});

/**
 * What `planner.fork` needs for a fork's first start: its records (the copied prefix, then the parent's),
 * its copied events, and the replay layer over the parent's record for `reuse: "recorded"`, where a tool
 * is served only when the fork's version defines it as the parent's did.
 */
export async function prepareFork(input: {
  store: WaddleStore;
  run: RunRecord;
  spec: AgentSpec;
  work: ForkWork;
}): Promise<{ fork: ForkInput; replay: CallReplay | undefined }> {
  const { store, run } = input;
  const parsed = ForkWorkShape.safeParse(input.work);
  if (!parsed.success) throw new ApiError("invalid_state", `Run "${run.id}" has a fork it cannot read.`);
  const work = parsed.data;
  const [own, parentRecords, events, parent] = await Promise.all([
    store.callRecords.list(run.id),
    store.callRecords.list(work.parentRunId),
    store.listEvents(run.id),
    store.getRun(work.parentRunId),
  ]);
  const fork: ForkInput = {
    fromStep: work.fromStep,
    query: run.query,
    records: [...own, ...parentRecords],
    events,
    ...(work.edit ? { edit: work.edit } : {}),
  };
  if (work.reuse === "none" || !parent) return { fork, replay: undefined };
  const parentAgent =
    parent.agentVersion === run.agentVersion
      ? { spec: input.spec }
      : await store.getAgentVersion(parent.agentId, parent.agentVersion);
  const isSameTool = (name: string): boolean => {
    const before = parentAgent?.spec.tools.find((tool) => tool.name === name);
    const now = input.spec.tools.find((tool) => tool.name === name);
    return before !== undefined && now !== undefined && getCanonicalJson(before) === getCanonicalJson(now);
  };
  return { fork, replay: createRecordedCallMatcher({ records: parentRecords, isSameTool }) };
}
