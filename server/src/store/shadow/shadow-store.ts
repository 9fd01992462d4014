import type { ShadowReport, ShadowReportSummary } from "@waddle/protocol";

/** Most reports one list answers unless asked for fewer. */
export const DEFAULT_SHADOW_REPORTS_LIMIT = 50;

/**
 * Stored shadow comparisons (issue 32): written once, read whole, listed per agent newest first without
 * their cases. SQLite, PostgreSQL and in-memory, under one conformance suite (`store-shadow-cases.ts`).
 */
export interface ShadowStore {
  create(report: ShadowReport): Promise<ShadowReport>;
  get(id: string): Promise<ShadowReport | undefined>;
  /** The agent's reports, newest first, without their cases; at most `limit` (default 50). */
  list(agentId: string, options?: { limit?: number }): Promise<ShadowReportSummary[]>;
}

/** A report without its cases, as a list shows it. */
export function getShadowReportSummary(report: ShadowReport): ShadowReportSummary {
  const { cases: _cases, ...summary } = report;
  return summary;
}
