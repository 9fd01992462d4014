import type { StoredRelease } from "./release-store.js";

export interface ReleaseRow {
  id: string;
  agent_id: string;
  channel: string;
  version: number;
  previous_version: number | null;
  previous_release_id: string | null;
  kind: string;
  released_at: string;
  released_by: string;
  notes: string | null;
  test_run_id: string | null;
  override_reason: string | null;
  /** Added by migration 18 (PostgreSQL 15). */
  shadow_report_id?: string | null;
}

export const RELEASE_COLUMNS =
  "id, agent_id, channel, version, previous_version, previous_release_id, kind, released_at, released_by, notes, test_run_id, override_reason, shadow_report_id";

export function toReleaseValues(release: StoredRelease): unknown[] {
  return [
    release.id,
    release.agentId,
    release.channel,
    release.version,
    release.previousVersion,
    release.previousReleaseId,
    release.kind,
    release.releasedAt,
    release.releasedBy,
    release.notes,
    release.testRunId,
    release.overrideReason,
    release.shadowReportId ?? null,
  ];
}

export function toStoredRelease(row: ReleaseRow): StoredRelease {
  return {
    id: row.id,
    agentId: row.agent_id,
    channel: row.channel,
    version: Number(row.version),
    previousVersion: row.previous_version === null ? null : Number(row.previous_version),
    previousReleaseId: row.previous_release_id,
    kind: row.kind === "rollback" ? "rollback" : "release",
    releasedAt: row.released_at,
    releasedBy: row.released_by,
    notes: row.notes,
    testRunId: row.test_run_id,
    overrideReason: row.override_reason,
    shadowReportId: row.shadow_report_id ?? null,
  };
}

/** The refusal of a compare-and-set that lost: the channel as it now is. */
export function getChannelMovedDetails(channel: unknown): Record<string, unknown> {
  return { channel: channel ?? null };
}
