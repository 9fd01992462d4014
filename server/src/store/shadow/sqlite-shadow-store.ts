import type Database from "better-sqlite3";
import type { ShadowReport, ShadowReportSummary } from "@waddle/protocol";
import { StoreError } from "../waddle-store.js";
import { DEFAULT_SHADOW_REPORTS_LIMIT, type ShadowStore } from "./shadow-store.js";
import {
  SHADOW_COLUMNS,
  toShadowReport,
  toShadowSummary,
  toShadowValues,
  type ShadowRow,
} from "./shadow-rows.js";

/** Shadow reports in the SQLite store's `shadow_reports` (migration 18): one row each, newest by rowid. */
export class SqliteShadowStore implements ShadowStore {
  constructor(private readonly db: Database.Database) {}

  async create(report: ShadowReport): Promise<ShadowReport> {
    try {
      this.db
        .prepare(`INSERT INTO shadow_reports (${SHADOW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`)
        .run(...toShadowValues(report));
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw error;
      throw new StoreError("conflict", `Shadow report "${report.id}" already exists.`, { id: report.id });
    }
    return structuredClone(report);
  }

  async get(id: string): Promise<ShadowReport | undefined> {
    const row = this.db.prepare("SELECT * FROM shadow_reports WHERE id = ?").get(id) as ShadowRow | undefined;
    return row && toShadowReport(row);
  }

  async list(agentId: string, options: { limit?: number } = {}): Promise<ShadowReportSummary[]> {
    const rows = this.db
      .prepare("SELECT id, summary FROM shadow_reports WHERE agent_id = ? ORDER BY rowid DESC LIMIT ?")
      .all(agentId, options.limit ?? DEFAULT_SHADOW_REPORTS_LIMIT) as Pick<ShadowRow, "id" | "summary">[];
    return rows.map(toShadowSummary);
  }
}
