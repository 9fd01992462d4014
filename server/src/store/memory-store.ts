import type {
  AgentRecord,
  AgentSpec,
  AgentSummary,
  AgentVersionSummary,
  RunEvent,
  RunRecord,
  RunStatus,
} from "@waddle/protocol";
import type { SerializedPlannerState } from "@waddle/planner";
import {
  EMPTY_USAGE,
  getAgentSummary,
  StoreError,
  type AppendBatchOptions,
  type AppendEventOptions,
  type EventEntry,
  type RunCheckpoint,
  type RunClaim,
  type ListRunsOptions,
  type NewRun,
  type RunPatch,
  type TaskRecord,
  type WaddleStore,
} from "./waddle-store.js";
import { MemoryReleaseStore } from "./releases/memory-release-store.js";
import { MemoryPublicChatStores } from "./public/memory-public-stores.js";
import { MemoryShadowStore } from "./shadow/memory-shadow-store.js";
import { MemoryInboxStore } from "./inbox/memory-inbox-store.js";
import { MemoryWebhookStore } from "./webhooks/memory-webhook-store.js";
import { MemoryTriggerStore } from "./triggers/memory-trigger-store.js";
import { MemoryRunClaims } from "./memory-run-claims.js";
import {
  agentExistsError,
  agentNotFoundError,
  runExistsError,
  runNotFoundError,
  seqGapError,
  staleAgentVersionError,
} from "./store-errors.js";
import { MemoryDraftStore } from "./drafts/memory-draft-store.js";
import { MemoryCredentialStore } from "./credentials/memory-credential-store.js";
import { MemoryApiKeyStore } from "./api-keys/memory-api-key-store.js";
import { MemoryRequestKeyStore } from "./request-keys/memory-request-key-store.js";
import { MemoryAuditStore } from "./audit/memory-audit-store.js";
import { MemoryA2aTaskStore } from "./a2a-tasks/memory-a2a-task-store.js";
import { MemorySessionStore } from "./sessions/memory-session-store.js";
import { MemoryTestStore } from "./tests/memory-test-store.js";
import { MemoryCallRecordStore } from "./call-records/memory-call-record-store.js";
import { withRunSummary } from "./with-run-summary.js";

interface StoredVersion {
  record: AgentRecord;
  message?: string;
}

/** A `WaddleStore` in memory: for tests, embedding and the CLI's in-process runs. Values are copied in and out. */
export class MemoryStore implements WaddleStore {
  private readonly agents = new Map<string, StoredVersion[]>();
  private readonly runs = new Map<string, RunRecord>();
  private readonly events = new Map<string, RunEvent[]>();
  private readonly pausedStates = new Map<string, SerializedPlannerState>();
  private readonly tasks = new Map<string, Map<string, TaskRecord>>();
  private readonly claims = new MemoryRunClaims(this.runs, (run, patch) => this.applyPatch(run, patch));
  private readonly checkpoints = new Map<string, RunCheckpoint>();
  readonly requestKeys = new MemoryRequestKeyStore();
  readonly audit = new MemoryAuditStore();
  readonly drafts = new MemoryDraftStore();
  readonly sessions = new MemorySessionStore();
  readonly tests = new MemoryTestStore();
  readonly credentials = new MemoryCredentialStore();
  readonly apiKeys = new MemoryApiKeyStore();
  readonly callRecords = new MemoryCallRecordStore();
  readonly releases = new MemoryReleaseStore();
  readonly publicChat = new MemoryPublicChatStores();
  readonly shadows = new MemoryShadowStore();
  readonly inbox = new MemoryInboxStore();
  readonly webhooks = new MemoryWebhookStore();
  readonly triggers = new MemoryTriggerStore();
  readonly a2aTasks = new MemoryA2aTaskStore();
  private closed = false;

  async listAgents(): Promise<AgentSummary[]> {
    this.assertOpen();
    return [...this.agents.values()]
      .map((versions) => getAgentSummary(versions.at(-1)!.record))
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  async getAgent(id: string): Promise<AgentRecord | undefined> {
    this.assertOpen();
    const latest = this.agents.get(id)?.at(-1);
    return latest ? structuredClone(latest.record) : undefined;
  }

  async createAgent(options: { spec: AgentSpec; message?: string; invalid?: boolean }): Promise<AgentRecord> {
    this.assertOpen();
    const { spec } = options;
    if (this.agents.has(spec.id)) {
      throw agentExistsError(spec.id, this.agents.get(spec.id)!.at(-1)!.record.version);
    }
    const now = new Date().toISOString();
    // Runs of a deleted agent with this id name the versions they ran: never reuse those numbers.
    let ran = 0;
    for (const run of this.runs.values()) if (run.agentId === spec.id) ran = Math.max(ran, run.agentVersion);
    const record: AgentRecord = {
      id: spec.id,
      version: ran + 1,
      spec: structuredClone(spec),
      updatedAt: now,
      createdAt: now,
      ...(options.invalid ? { invalid: true } : {}),
    };
    this.agents.set(spec.id, [{ record, ...(options.message ? { message: options.message } : {}) }]);
    return structuredClone(record);
  }

  async updateAgent(options: {
    id: string;
    spec: AgentSpec;
    baseVersion: number;
    message?: string;
    invalid?: boolean;
  }): Promise<AgentRecord> {
    this.assertOpen();
    const versions = this.agents.get(options.id);
    if (!versions) throw agentNotFoundError(options.id);
    const latest = versions.at(-1)!.record;
    if (latest.version !== options.baseVersion) {
      throw staleAgentVersionError(options.id, latest.version, options.baseVersion);
    }
    const record: AgentRecord = {
      id: options.id,
      version: latest.version + 1,
      spec: structuredClone({ ...options.spec, id: options.id }),
      updatedAt: new Date().toISOString(),
      createdAt: versions[0]!.record.createdAt ?? latest.updatedAt,
      ...(options.invalid ? { invalid: true } : {}),
    };
    versions.push({ record, ...(options.message ? { message: options.message } : {}) });
    return structuredClone(record);
  }

  async deleteAgent(id: string): Promise<boolean> {
    this.assertOpen();
    return this.agents.delete(id);
  }

  async listAgentVersions(id: string): Promise<AgentVersionSummary[] | undefined> {
    this.assertOpen();
    return this.agents.get(id)?.map(({ record, message }) => ({
      version: record.version,
      createdAt: record.updatedAt,
      name: record.spec.name,
      ...(message ? { message } : {}),
      ...(record.invalid ? { invalid: true } : {}),
    }));
  }

  async getAgentVersion(id: string, version: number): Promise<AgentRecord | undefined> {
    this.assertOpen();
    const found = this.agents.get(id)?.find((entry) => entry.record.version === version);
    return found ? structuredClone(found.record) : undefined;
  }

  async createRun(run: NewRun): Promise<RunRecord> {
    this.assertOpen();
    if (this.runs.has(run.id)) throw runExistsError(run.id);
    const record: RunRecord = {
      id: run.id,
      agentId: run.agentId,
      agentVersion: run.agentVersion,
      status: run.status,
      query: run.query,
      result: null,
      usage: { ...EMPTY_USAGE },
      startedAt: null,
      finishedAt: null,
      createdAt: new Date().toISOString(),
      lastSeq: 0,
      pause: null,
      error: null,
      offline: run.offline ?? false,
      ...(run.offlineChosen ? { offlineChosen: true } : {}),
      ...(run.toolContextKeys === undefined ? {} : { toolContextKeys: [...run.toolContextKeys] }),
      ...run.origin,
    };
    this.runs.set(run.id, record);
    this.events.set(run.id, []);
    this.claims.create(run);
    return withRunSummary(structuredClone(record));
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    this.assertOpen();
    const run = this.runs.get(id);
    return run ? withRunSummary(structuredClone(run)) : undefined;
  }

  async listRuns(options: ListRunsOptions = {}): Promise<RunRecord[]> {
    this.assertOpen();
    const runs = [...this.runs.values()]
      .filter((run) => options.agentId === undefined || run.agentId === options.agentId)
      .filter((run) => options.statuses === undefined || options.statuses.includes(run.status))
      .filter((run) => options.purpose === undefined || (run.purpose ?? "run") === options.purpose)
      .filter((run) => options.channel === undefined || run.channel === options.channel)
      .filter((run) => options.trigger === undefined || run.trigger?.id === options.trigger)
      .filter((run) => options.triggerKind === undefined || run.trigger?.kind === options.triggerKind)
      .filter(
        (run) =>
          options.rating === undefined || this.publicChat.ratings.peek(run.id)?.rating === options.rating,
      )
      .reverse();
    return structuredClone(options.limit === undefined ? runs : runs.slice(0, options.limit)).map(
      withRunSummary,
    );
  }

  async updateRun(id: string, patch: RunPatch, options: { fence?: number } = {}): Promise<RunRecord> {
    this.assertOpen();
    const run = this.runs.get(id);
    if (!run) throw runNotFoundError(id);
    if (options.fence !== undefined) this.claims.assertFence(id, options.fence);
    this.applyPatch(run, patch);
    return withRunSummary(structuredClone(run));
  }

  async appendEvent(event: RunEvent, options: AppendEventOptions = {}): Promise<void> {
    await this.appendEvents([{ event, options }]);
  }

  async appendEvents(entries: readonly EventEntry[], batch: AppendBatchOptions = {}): Promise<void> {
    this.assertOpen();
    if (batch.fence) this.claims.assertFence(batch.fence.runId, batch.fence.epoch);
    // Check the whole batch first, so that a refused event leaves nothing written (as a transaction would).
    const expected = new Map<string, number>();
    for (const { event } of entries) {
      const run = this.runs.get(event.runId);
      if (!run) throw runNotFoundError(event.runId);
      const lastSeq = expected.get(event.runId) ?? run.lastSeq ?? 0;
      if (event.seq !== lastSeq + 1) {
        throw seqGapError(event.runId, event.seq, lastSeq);
      }
      expected.set(event.runId, event.seq);
    }
    for (const { event, options = {} } of entries) {
      const run = this.runs.get(event.runId)!;
      this.events.get(event.runId)!.push(structuredClone(event));
      run.lastSeq = event.seq;
      if (options.run) this.applyPatch(run, options.run);
      if (options.task) {
        const tasks = this.tasks.get(event.runId) ?? new Map<string, TaskRecord>();
        tasks.set(options.task.taskId, structuredClone(options.task));
        this.tasks.set(event.runId, tasks);
      }
    }
    if (batch.checkpoint) this.checkpoints.set(batch.checkpoint.runId, structuredClone(batch.checkpoint));
  }

  async listEvents(runId: string, options: { afterSeq?: number; limit?: number } = {}): Promise<RunEvent[]> {
    this.assertOpen();
    const events = this.events.get(runId) ?? [];
    const start = Math.max(0, options.afterSeq ?? 0);
    const end = options.limit === undefined ? undefined : start + options.limit;
    // seq n sits at index n - 1, since seq has no gaps.
    return structuredClone(events.slice(start, end));
  }

  async savePausedState(options: {
    token: string;
    runId?: string;
    state: SerializedPlannerState;
    fence?: number;
  }): Promise<void> {
    this.assertOpen();
    if (options.fence !== undefined && options.runId !== undefined)
      this.claims.assertFence(options.runId, options.fence);
    this.pausedStates.set(options.token, structuredClone(options.state));
  }

  async loadPausedState(token: string): Promise<SerializedPlannerState | undefined> {
    this.assertOpen();
    const state = this.pausedStates.get(token);
    return state ? structuredClone(state) : undefined;
  }

  async deletePausedState(token: string): Promise<void> {
    this.assertOpen();
    this.pausedStates.delete(token);
  }

  async listTasks(runId: string): Promise<TaskRecord[]> {
    this.assertOpen();
    return structuredClone([...(this.tasks.get(runId)?.values() ?? [])]);
  }

  async loadCheckpoint(runId: string): Promise<RunCheckpoint | undefined> {
    this.assertOpen();
    const checkpoint = this.checkpoints.get(runId);
    return checkpoint ? structuredClone(checkpoint) : undefined;
  }

  async claimRun(options: Parameters<WaddleStore["claimRun"]>[0]): Promise<RunClaim | undefined> {
    this.assertOpen();
    return this.claims.claimRun(options);
  }

  async renewClaim(claim: RunClaim, leaseMs: number): Promise<{ held: boolean; cancelRequested: boolean }> {
    this.assertOpen();
    return this.claims.renewClaim(claim, leaseMs);
  }

  async releaseClaim(claim: RunClaim): Promise<void> {
    this.assertOpen();
    this.claims.releaseClaim(claim);
  }

  async listUnclaimedRuns(limit?: number): Promise<{ runId: string; epoch: number; status: RunStatus }[]> {
    this.assertOpen();
    return this.claims.listUnclaimedRuns(limit);
  }

  async queueResume(
    options: Parameters<WaddleStore["queueResume"]>[0],
  ): Promise<{ run: RunRecord; epoch: number } | undefined> {
    this.assertOpen();
    return this.claims.queueResume(options);
  }

  async requestCancel(runId: string): Promise<void> {
    this.assertOpen();
    this.claims.requestCancel(runId);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError("closed", "The store is closed.");
  }

  /** The record's fields, and the queue-mode ones (`work`, `leaseMs`) kept beside it. */
  private applyPatch(run: RunRecord, patch: RunPatch): void {
    const { work, leaseMs, ...fields } = patch;
    this.claims.applyLeasePatch(run.id, { work, leaseMs });
    applyRunPatch(run, fields);
  }
}

function applyRunPatch(run: RunRecord, patch: RunPatch): void {
  for (const [key, value] of Object.entries(patch)) {
    // A run without toolContext keys has no such field (as SqliteStore reads it), not a null one.
    if (key === "toolContextKeys" && value === null) delete run.toolContextKeys;
    else if (value !== undefined) (run as Record<string, unknown>)[key] = structuredClone(value);
  }
}
