import type { RequestKeyRecord, RequestKeyReservation, RequestKeyStore } from "./request-key-store.js";

/** Request keys in a Map, for the in-memory store. */
export class MemoryRequestKeyStore implements RequestKeyStore {
  private readonly records = new Map<string, RequestKeyRecord>();

  async reserve(options: {
    scope: string;
    key: string;
    fingerprint: string;
    ttlMs: number;
    now?: number;
  }): Promise<RequestKeyReservation> {
    const now = options.now ?? Date.now();
    for (const [id, record] of this.records) if (record.expiresAt <= now) this.records.delete(id);
    const id = getId(options);
    const held = this.records.get(id);
    if (held) return { reserved: false, record: { ...held } };
    const { scope, key, fingerprint } = options;
    this.records.set(id, { scope, key, fingerprint, createdAt: now, expiresAt: now + options.ttlMs });
    return { reserved: true };
  }

  async setRun(options: { scope: string; key: string; runId: string }): Promise<void> {
    const record = this.records.get(getId(options));
    if (record) record.runId = options.runId;
  }

  async get(options: { scope: string; key: string }): Promise<RequestKeyRecord | undefined> {
    const record = this.records.get(getId(options));
    return record && { ...record };
  }

  async release(options: { scope: string; key: string }): Promise<void> {
    this.records.delete(getId(options));
  }
}

function getId(options: { scope: string; key: string }): string {
  return JSON.stringify([options.scope, options.key]);
}
