import type { ShadowReport, ShadowReportSummary } from "@waddle/protocol";
import { isUniqueViolation } from "../pg-errors.js";
import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import { StoreError } from "../waddle-store.js";
import { DEFAULT_SHADOW_REPORTS_LIMIT, type ShadowStore } from "./shadow-store.js";
import {
  SHADOW_COLUMNS,
  toShadowReport,
  toShadowSummary,
  toShadowValues,
  type ShadowRow,
} from "./shadow-rows.js";

/** Shadow reports in the PostgreSQL store (migration 15), as in SQLite; newest by `position`. */
export class PgShadowStore implements ShadowStore {
  constructor(private readonly query: PgQuery) {}

  async create(report: ShadowReport): Promise<ShadowReport> {
    try {
      await this.query(
        `INSERT INTO shadow_reports (${SHADOW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`,
        toShadowValues(report),
        "write",
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new StoreError("conflict", `Shadow report "${report.id}" already exists.`, { id: report.id });
    }
    return structuredClone(report);
  }

  async get(id: string): Promise<ShadowReport | undefined> {
    const { rows } = await this.query("SELECT * FROM shadow_reports WHERE id = $1", [id]);
    return rows[0] ? toShadowReport(rows[0] as ShadowRow) : undefined;
  }

  async list(agentId: string, options: { limit?: number } = {}): Promise<ShadowReportSummary[]> {
    const { rows } = await this.query(
      "SELECT id, summary FROM shadow_reports WHERE agent_id = $1 ORDER BY position DESC LIMIT $2",
      [agentId, options.limit ?? DEFAULT_SHADOW_REPORTS_LIMIT],
    );
    return (rows as Pick<ShadowRow, "id" | "summary">[]).map(toShadowSummary);
  }
}
