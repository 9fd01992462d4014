import type { ShadowReport, ShadowReportSummary } from "@waddle/protocol";
import { StoreError } from "../waddle-store.js";
import { DEFAULT_SHADOW_REPORTS_LIMIT, getShadowReportSummary, type ShadowStore } from "./shadow-store.js";

/** Shadow reports in an array, oldest first, for the in-memory store. Values are copied in and out. */
export class MemoryShadowStore implements ShadowStore {
  private readonly reports: ShadowReport[] = [];

  async create(report: ShadowReport): Promise<ShadowReport> {
    if (this.reports.some((stored) => stored.id === report.id)) {
      throw new StoreError("conflict", `Shadow report "${report.id}" already exists.`, { id: report.id });
    }
    this.reports.push(structuredClone(report));
    return structuredClone(report);
  }

  async get(id: string): Promise<ShadowReport | undefined> {
    const report = this.reports.find((stored) => stored.id === id);
    return report && structuredClone(report);
  }

  async list(agentId: string, options: { limit?: number } = {}): Promise<ShadowReportSummary[]> {
    return this.reports
      .filter((report) => report.agentId === agentId)
      .reverse()
      .slice(0, options.limit ?? DEFAULT_SHADOW_REPORTS_LIMIT)
      .map((report) => structuredClone(getShadowReportSummary(report)));
  }
}
