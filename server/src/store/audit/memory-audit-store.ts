import type { AuditEntry } from "@waddle/protocol";
import { StoreError } from "../waddle-store.js";
import { normalizeAuditTime, type AuditListOptions, type AuditStore } from "./audit-store.js";

/** The audit log in an array, for the in-memory store. */
export class MemoryAuditStore implements AuditStore {
  private readonly entries: AuditEntry[] = [];
  private readonly ids = new Set<string>();

  async append(entry: AuditEntry): Promise<void> {
    if (this.ids.has(entry.id)) {
      throw new StoreError("conflict", `Audit entry "${entry.id}" already exists: the log is append-only.`);
    }
    this.ids.add(entry.id);
    this.entries.push(structuredClone(entry));
  }

  async list(options: AuditListOptions): Promise<AuditEntry[]> {
    const since = options.since === undefined ? undefined : normalizeAuditTime(options.since);
    const found: AuditEntry[] = [];
    for (let index = this.entries.length - 1; index >= 0 && found.length < options.limit; index -= 1) {
      const entry = this.entries[index]!;
      if (since !== undefined && entry.at < since) continue;
      if (options.actor !== undefined && entry.actor !== options.actor) continue;
      if (options.action !== undefined && entry.action !== options.action) continue;
      found.push(structuredClone(entry));
    }
    return found;
  }
}
