import type {
  CreateTriggerRequest,
  CreateTriggerResponse,
  Trigger,
  TriggerFire,
  UpdateTriggerRequest,
} from "@waddle/protocol";
import { notFound } from "../shared/api-error.js";
import type { TriggerRecord } from "../store/triggers/trigger-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { createTriggerId, createTriggerSecret } from "./trigger-ids.js";
import { applyTriggerUpdate, checkTriggerSettings, getTriggerView } from "./trigger-settings.js";

export interface TriggerServiceOptions {
  store: WaddleStore;
  /** Told of every change made here, so that this instance's schedules follow at once. */
  onChange?: () => void;
  now?: () => number;
}

/** Triggers of agents: create, list, change, delete, and a trigger's fires with the state of their runs. */
export class TriggerService {
  private readonly now: () => number;

  constructor(private readonly options: TriggerServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A new trigger of an existing agent; a webhook's secret is in the answer, this once. */
  async create(
    agentId: string,
    request: CreateTriggerRequest,
    createdBy: string,
  ): Promise<CreateTriggerResponse> {
    const { store } = this.options;
    if (!(await store.getAgent(agentId))) throw notFound("Agent", agentId);
    const nowMs = this.now();
    const { enabled = true, name, ...settings } = request;
    checkTriggerSettings(settings, nowMs);
    const at = new Date(nowMs).toISOString();
    const secret = settings.kind === "webhook" ? createTriggerSecret() : null;
    const record = {
      ...settings,
      id: createTriggerId(),
      agentId,
      name: name ? name : null,
      enabled,
      createdAt: at,
      createdBy,
      updatedAt: at,
      lastFiredAt: null,
      secret,
    } as TriggerRecord;
    await store.triggers.create(record);
    this.options.onChange?.();
    return { trigger: getTriggerView(record, nowMs), ...(secret ? { secret } : {}) };
  }

  /** The agent's triggers, oldest first; 404 for an agent that does not exist. */
  async list(agentId: string): Promise<Trigger[]> {
    const { store } = this.options;
    if (!(await store.getAgent(agentId))) throw notFound("Agent", agentId);
    const nowMs = this.now();
    return (await store.triggers.list({ agentId })).map((record) => getTriggerView(record, nowMs));
  }

  /** Changes a trigger of the agent; the trigger before and after (for the audit log). */
  async update(
    agentId: string,
    triggerId: string,
    patch: UpdateTriggerRequest,
  ): Promise<{ before: Trigger; trigger: Trigger }> {
    const record = await this.require(agentId, triggerId);
    const nowMs = this.now();
    const updated = await this.options.store.triggers.replace(applyTriggerUpdate(record, patch, { nowMs }));
    this.options.onChange?.();
    return { before: getTriggerView(record, nowMs), trigger: getTriggerView(updated, nowMs) };
  }

  async delete(agentId: string, triggerId: string): Promise<Trigger> {
    const record = await this.require(agentId, triggerId);
    await this.options.store.triggers.delete(triggerId);
    this.options.onChange?.();
    return getTriggerView(record, this.now());
  }

  /** The trigger's latest fires, newest first, each with its run's status now. */
  async listFires(agentId: string, triggerId: string, limit: number): Promise<TriggerFire[]> {
    const { store } = this.options;
    await this.require(agentId, triggerId);
    const fires = await store.triggers.listFires(triggerId, { limit });
    return Promise.all(
      fires.map(async (fire) => ({
        ...fire,
        runStatus: fire.runId ? ((await store.getRun(fire.runId))?.status ?? null) : null,
      })),
    );
  }

  /** The agent's trigger, or 404 (another agent's trigger is not found here either). */
  private async require(agentId: string, triggerId: string): Promise<TriggerRecord> {
    const record = await this.options.store.triggers.get(triggerId);
    if (!record || record.agentId !== agentId) throw notFound("Trigger", triggerId);
    return record;
  }
}
