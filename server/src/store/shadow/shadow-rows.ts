import { parseJson, ShadowCase, ShadowReportSummary, type ShadowReport } from "@waddle/protocol";
import { z } from "zod";
import { StoreError } from "../waddle-store.js";
import { getShadowReportSummary } from "./shadow-store.js";

/** A report as SQLite and PostgreSQL keep it: the summary and the cases as JSON text. */
export interface ShadowRow {
  id: string;
  agent_id: string;
  candidate_version: number;
  created_at: string;
  summary: string;
  cases: string;
}

export const SHADOW_COLUMNS = "id, agent_id, candidate_version, created_at, summary, cases";

export function toShadowValues(report: ShadowReport): unknown[] {
  return [
    report.id,
    report.agentId,
    report.candidateVersion,
    report.createdAt,
    JSON.stringify(getShadowReportSummary(report)),
    JSON.stringify(report.cases),
  ];
}

const StoredCases = z.array(ShadowCase);

/** The stored summary, checked (stored JSON is an edge); a row that is not one is a store fault. */
export function toShadowSummary(row: Pick<ShadowRow, "id" | "summary">) {
  return readJson(row.id, row.summary, ShadowReportSummary);
}

export function toShadowReport(row: ShadowRow): ShadowReport {
  return { ...toShadowSummary(row), cases: readJson(row.id, row.cases, StoredCases) };
}

function readJson<T>(id: string, text: string, schema: z.ZodType<T>): T {
  const parsed = parseJson(text);
  const checked = parsed.ok ? schema.safeParse(parsed.value) : undefined;
  if (checked?.success) return checked.data;
  throw new StoreError("conflict", `Shadow report "${id}" is stored in a shape this server cannot read.`, {
    id,
  });
}
