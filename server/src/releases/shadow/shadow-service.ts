import { randomBytes } from "node:crypto";
import {
  PRODUCTION_CHANNEL,
  type AgentRecord,
  type RunRecord,
  type ShadowCase,
  type ShadowReport,
  type ShadowReportSummary,
  type ShadowRequest,
  type ShadowSide,
} from "@waddle/protocol";
import type { PlannerFactory } from "../../runs/planner-factory.js";
import { getRunAgent } from "../../runs/get-run-agent.js";
import { notFound } from "../../shared/api-error.js";
import type { Logger } from "../../shared/logger.js";
import type { WaddleStore } from "../../store/waddle-store.js";
import { resolveRunTarget } from "../resolve-run-target.js";
import { compareShadowSides, getShadowTotals } from "./compare-shadow-sides.js";
import { getTurnContextMeta } from "./get-turn-context.js";
import { runShadowCandidate } from "./run-shadow-candidate.js";
import { selectBaselineRuns } from "./select-baseline-runs.js";
import { getRecordedPath, getRecordedToolCalls } from "./shadow-recordings.js";

/** Cases replayed when the request names no limit. */
export const DEFAULT_SHADOW_LIMIT = 20;
/** Cases replayed at once: a shadow of 100 cases on a remote model should not take 100 model latencies. */
const CONCURRENCY = 4;

export interface ShadowServiceOptions {
  store: WaddleStore;
  /** The run service's planner factory: the candidate's own LLM, tools kinds and settings. */
  createPlanner: PlannerFactory;
  logger: Logger;
}

const createReportId = () => `shr_${randomBytes(6).toString("hex")}`;

/**
 * Shadow comparisons (issue 32, `docs/guides/releases.md`): replays the recent runs and turns a baseline
 * channel served against a candidate version, in this process, while the request waits. Each case's tool
 * calls are answered only from that run's recording (`createShadowReplay`): no tool ever runs. The report
 * is stored and answered.
 */
export class ShadowService {
  constructor(private readonly options: ShadowServiceOptions) {}

  async create(input: {
    agentId: string;
    request: ShadowRequest;
    createdBy: string;
    signal?: AbortSignal;
  }): Promise<ShadowReport> {
    const { store, logger } = this.options;
    const { agentId, request } = input;
    if (!(await store.getAgent(agentId))) throw notFound("Agent", agentId);
    const target = await resolveRunTarget(
      store,
      agentId,
      typeof request.candidate === "number" ? { version: request.candidate } : { channel: request.candidate },
    );
    const candidate = await getRunAgent(store, { agentId, agentVersion: target.version });
    const selected = await selectBaselineRuns(store, {
      agentId,
      channel: request.baseline ?? PRODUCTION_CHANNEL,
      limit: request.limit ?? DEFAULT_SHADOW_LIMIT,
    });
    const id = createReportId();
    const started = Date.now();
    const cases = await mapWithConcurrency(selected.runs, CONCURRENCY, (run, index) =>
      this.replay({ run, candidate, runId: `${id}_${index + 1}`, signal: input.signal }),
    );
    const report: ShadowReport = {
      id,
      agentId,
      candidateVersion: candidate.version,
      baseline: selected.baseline,
      createdAt: new Date().toISOString(),
      createdBy: input.createdBy,
      note: selected.note,
      cases,
      totals: getShadowTotals(cases),
    };
    await store.shadows.create(report);
    logger.info("shadow comparison stored", {
      reportId: id,
      agent: `${agentId}@${candidate.version}`,
      baseline: selected.baseline.channel,
      cases: cases.length,
      ms: Date.now() - started,
    });
    return report;
  }

  async list(agentId: string): Promise<ShadowReportSummary[]> {
    await this.requireAgent(agentId);
    return this.options.store.shadows.list(agentId);
  }

  async get(agentId: string, reportId: string): Promise<ShadowReport> {
    await this.requireAgent(agentId);
    const report = await this.options.store.shadows.get(reportId);
    if (!report || report.agentId !== agentId) throw notFound(`Shadow report of "${agentId}"`, reportId);
    return report;
  }

  private async requireAgent(agentId: string): Promise<void> {
    if (!(await this.options.store.getAgent(agentId))) throw notFound("Agent", agentId);
  }

  /** One case: the baseline as recorded, the candidate replayed on its recording and its context. */
  private async replay(input: {
    run: RunRecord;
    candidate: AgentRecord;
    runId: string;
    signal?: AbortSignal | undefined;
  }): Promise<ShadowCase> {
    const { store, createPlanner } = this.options;
    const { run } = input;
    const [events, records] = await Promise.all([store.listEvents(run.id), store.callRecords.list(run.id)]);
    const recorded = getRecordedToolCalls(events, records);
    const turn = run.sessionId !== undefined && run.turn !== undefined ? run.turn : null;
    const sessionId = turn === null ? null : run.sessionId!;
    const contextMeta =
      sessionId === null || turn === null ? undefined : await getTurnContextMeta(store, { sessionId, turn });
    const baseline: ShadowSide = {
      version: run.agentVersion,
      status: run.status,
      answer: run.result?.kind === "finish" ? run.result.payload.answer : null,
      error: run.error ?? null,
      tools: getRecordedPath(recorded),
      usage: run.usage,
      durationMs: run.durationMs ?? 0,
    };
    const candidate = await runShadowCandidate({
      store,
      createPlanner,
      agent: input.candidate,
      runId: input.runId,
      query: run.query,
      contextMeta,
      recorded,
      signal: input.signal,
    });
    return compareShadowSides({ runId: run.id, sessionId, turn, query: run.query, baseline, candidate });
  }
}

/** `map` with at most `limit` calls in flight, results in the items' order. */
async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  map: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await map(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
