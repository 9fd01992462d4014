import type { TriggerKind } from "@waddle/protocol";
import { StoreError } from "../waddle-store.js";
import type { LapsedTick, StoredFire, TriggerRecord, TriggerStore } from "./trigger-store.js";

interface Tick {
  owner: string;
  leaseUntil: number;
  done: boolean;
}

const tickKey = (triggerId: string, tick: string) => `${triggerId}\u0000${tick}`;
const byNewest = (a: StoredFire, b: StoredFire) =>
  a.firedAt < b.firedAt ? 1 : a.firedAt > b.firedAt ? -1 : 0;

/** Triggers in maps, for the in-memory store. Values are copied in and out. */
export class MemoryTriggerStore implements TriggerStore {
  private readonly triggers = new Map<string, TriggerRecord>();
  /** Fires in the order they were first written (a stable tie-break for equal `firedAt`). */
  private readonly fires = new Map<string, StoredFire>();
  private readonly ticks = new Map<string, Tick & { triggerId: string; tick: string }>();
  private readonly keys = new Map<string, { runId: string; at: string }>();

  async create(trigger: TriggerRecord): Promise<TriggerRecord> {
    if (this.triggers.has(trigger.id)) {
      throw new StoreError("conflict", `Trigger "${trigger.id}" already exists.`, { id: trigger.id });
    }
    this.triggers.set(trigger.id, structuredClone(trigger));
    return structuredClone(trigger);
  }

  async get(id: string): Promise<TriggerRecord | undefined> {
    const trigger = this.triggers.get(id);
    return trigger && structuredClone(trigger);
  }

  async list(
    options: { agentId?: string; kind?: TriggerKind; enabled?: boolean } = {},
  ): Promise<TriggerRecord[]> {
    return [...this.triggers.values()]
      .filter((trigger) => options.agentId === undefined || trigger.agentId === options.agentId)
      .filter((trigger) => options.kind === undefined || trigger.kind === options.kind)
      .filter((trigger) => options.enabled === undefined || trigger.enabled === options.enabled)
      .map((trigger) => structuredClone(trigger));
  }

  async replace(trigger: TriggerRecord): Promise<TriggerRecord> {
    const stored = this.triggers.get(trigger.id);
    if (!stored)
      throw new StoreError("not_found", `Trigger "${trigger.id}" does not exist.`, { id: trigger.id });
    this.triggers.set(trigger.id, { ...structuredClone(trigger), agentId: stored.agentId });
    return structuredClone(this.triggers.get(trigger.id)!);
  }

  async markFired(id: string, at: string): Promise<void> {
    const trigger = this.triggers.get(id);
    if (trigger && (trigger.lastFiredAt === null || trigger.lastFiredAt < at)) trigger.lastFiredAt = at;
  }

  async delete(id: string): Promise<boolean> {
    if (!this.triggers.delete(id)) return false;
    for (const [key, fire] of this.fires) if (fire.triggerId === id) this.fires.delete(key);
    for (const [key, tick] of this.ticks) if (tick.triggerId === id) this.ticks.delete(key);
    for (const key of this.keys.keys()) if (key.startsWith(`${id}\u0000`)) this.keys.delete(key);
    return true;
  }

  async deleteAgent(agentId: string): Promise<number> {
    const ids = [...this.triggers.values()].filter((trigger) => trigger.agentId === agentId);
    for (const trigger of ids) await this.delete(trigger.id);
    return ids.length;
  }

  async saveFire(fire: StoredFire): Promise<void> {
    this.fires.set(fire.id, structuredClone(fire));
  }

  async getFire(id: string): Promise<StoredFire | undefined> {
    const fire = this.fires.get(id);
    return fire && structuredClone(fire);
  }

  async listFires(
    triggerId: string,
    options: { limit?: number; before?: string; statuses?: readonly StoredFire["status"][] } = {},
  ): Promise<StoredFire[]> {
    const { before, statuses } = options;
    return [...this.fires.values()]
      .reverse()
      .filter((fire) => fire.triggerId === triggerId)
      .filter((fire) => before === undefined || fire.firedAt < before)
      .filter((fire) => statuses === undefined || statuses.includes(fire.status))
      .sort(byNewest)
      .slice(0, options.limit ?? Infinity)
      .map((fire) => structuredClone(fire));
  }

  async listQueuedFires(limit = 100): Promise<StoredFire[]> {
    return [...this.fires.values()]
      .filter((fire) => fire.status === "queued")
      .sort((a, b) => byNewest(b, a))
      .slice(0, limit)
      .map((fire) => structuredClone(fire));
  }

  async claimTick(options: {
    triggerId: string;
    tick: string;
    owner: string;
    leaseMs: number;
  }): Promise<boolean> {
    const key = tickKey(options.triggerId, options.tick);
    const now = Date.now();
    const held = this.ticks.get(key);
    if (held && (held.done || held.leaseUntil > now)) return false;
    this.ticks.set(key, {
      triggerId: options.triggerId,
      tick: options.tick,
      owner: options.owner,
      leaseUntil: now + options.leaseMs,
      done: false,
    });
    return true;
  }

  async finishTick(options: { triggerId: string; tick: string; owner: string }): Promise<void> {
    const held = this.ticks.get(tickKey(options.triggerId, options.tick));
    if (held?.owner === options.owner) held.done = true;
  }

  async listLapsedTicks(limit = 100): Promise<LapsedTick[]> {
    const now = Date.now();
    return [...this.ticks.values()]
      .filter((tick) => !tick.done && tick.leaseUntil <= now)
      .sort((a, b) => a.leaseUntil - b.leaseUntil)
      .slice(0, limit)
      .map(({ triggerId, tick }) => ({ triggerId, tick }));
  }

  async reserveKey(options: {
    triggerId: string;
    key: string;
    runId: string;
    at: string;
  }): Promise<{ reserved: true } | { reserved: false; runId: string }> {
    const key = tickKey(options.triggerId, options.key);
    const held = this.keys.get(key);
    if (held) return { reserved: false, runId: held.runId };
    this.keys.set(key, { runId: options.runId, at: options.at });
    return { reserved: true };
  }

  async releaseKey(options: { triggerId: string; key: string; runId: string }): Promise<void> {
    const key = tickKey(options.triggerId, options.key);
    if (this.keys.get(key)?.runId === options.runId) this.keys.delete(key);
  }

  async prune(options: { before: string; keepFires: number }): Promise<void> {
    const latest = new Map<string, string>();
    for (const tick of this.ticks.values()) {
      if ((latest.get(tick.triggerId) ?? "") < tick.tick) latest.set(tick.triggerId, tick.tick);
    }
    for (const [key, tick] of this.ticks) {
      if (tick.done && tick.tick < options.before && latest.get(tick.triggerId) !== tick.tick) {
        this.ticks.delete(key);
      }
    }
    for (const [key, held] of this.keys) if (held.at < options.before) this.keys.delete(key);
    for (const triggerId of this.triggers.keys()) {
      const kept = await this.listFires(triggerId, { limit: options.keepFires });
      const keep = new Set(kept.map((fire) => fire.id));
      for (const [id, fire] of this.fires)
        if (fire.triggerId === triggerId && !keep.has(id)) this.fires.delete(id);
    }
  }
}
