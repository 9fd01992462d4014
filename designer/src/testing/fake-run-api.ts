import type {
  AgentRecord,
  AgentSpec,
  ResumeRequest,
  RunEvent,
  RunRecord,
  RunStatus,
  StartRunRequest,
} from "@waddle/protocol";
import type { ListRunsOptions } from "../api/runs-api.js";
import { ApiError } from "../api/api-error.js";
import type { FakeRunTransport } from "../runs/transport/fake-run-transport.js";
import type { RunStoreOptions } from "../runs/run-store.js";

/**
 * The run routes of the REST API in memory, for run store tests: runs and agent versions it holds, and
 * the events of the FakeRunTransport given (so that REST and the live stream agree). Records every call.
 */
export class FakeRunApi implements Pick<RunStoreOptions["api"], keyof RunStoreOptions["api"]> {
  readonly calls: string[] = [];
  /** Every POST /api/runs body, as sent. */
  readonly startRequests: StartRunRequest[] = [];
  readonly runs = new Map<string, RunRecord>();
  readonly versions = new Map<string, AgentSpec>();
  /** The next resume throws this (once). */
  nextResumeError: ApiError | null = null;
  private nextId = 1;

  constructor(private readonly transport: FakeRunTransport) {}

  addRun(run: RunRecord, events: readonly RunEvent[] = []): RunRecord {
    this.runs.set(run.id, run);
    this.transport.pushEvents(events);
    return run;
  }

  addVersion(spec: AgentSpec, version = 1): void {
    this.versions.set(`${spec.id}@${version}`, spec);
  }

  async getRun(id: string): Promise<RunRecord> {
    this.calls.push(`getRun ${id}`);
    const run = this.runs.get(id);
    if (run === undefined) throw new ApiError("not_found", `Run "${id}" does not exist.`, 404);
    return run;
  }

  async getRunEvents(id: string, after = 0): Promise<RunEvent[]> {
    this.calls.push(`getRunEvents ${id} ${after}`);
    return this.transport.getEvents(id, after);
  }

  async getVersion(id: string, version: number): Promise<AgentRecord> {
    this.calls.push(`getVersion ${id} ${version}`);
    const spec = this.versions.get(`${id}@${version}`);
    if (spec === undefined) throw new ApiError("not_found", `Agent "${id}" has no version ${version}.`, 404);
    return { id, version, spec, updatedAt: "2025-01-01T00:00:00Z" };
  }

  async listRuns(options: ListRunsOptions = {}): Promise<RunRecord[]> {
    const purpose = options.purpose ?? "run";
    this.calls.push(
      `listRuns ${options.agentId ?? ""} ${[options.status ?? []].flat().join(",")}${options.purpose ? ` purpose=${options.purpose}` : ""}`,
    );
    const statuses = options.status === undefined ? null : [options.status].flat();
    return [...this.runs.values()]
      .filter((run) => options.agentId === undefined || run.agentId === options.agentId)
      .filter((run) => statuses === null || statuses.includes(run.status))
      .filter((run) => purpose === "all" || (run.purpose ?? "run") === purpose)
      .slice(0, options.limit ?? 100);
  }

  async startRun(body: StartRunRequest): Promise<{ runId: string }> {
    this.calls.push(`startRun ${body.agentId} ${body.query}`);
    this.startRequests.push(body);
    const runId = `run-new-${this.nextId++}`;
    this.runs.set(runId, makeRunRecord({ id: runId, agentId: body.agentId, query: body.query }));
    return { runId };
  }

  async cancelRun(id: string): Promise<{ runId: string; status: RunStatus }> {
    this.calls.push(`cancelRun ${id}`);
    const run = await this.getRun(id);
    this.runs.set(id, { ...run, status: "cancelled" });
    return { runId: id, status: "cancelled" };
  }

  async resumeRun(id: string, body: ResumeRequest): Promise<{ runId: string }> {
    this.calls.push(`resumeRun ${id} ${body.resumeToken} ${body.decision}`);
    const error = this.nextResumeError;
    this.nextResumeError = null;
    if (error !== null) throw error;
    return { runId: id };
  }
}

export function makeRunRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    id: "run-1",
    agentId: "test-agent",
    agentVersion: 1,
    status: "queued",
    query: "q",
    result: null,
    usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}
