import type { Channel, Release } from "@waddle/protocol";

/** A release as stored: with the release its channel pointed at before, which a rollback goes back to. */
export interface StoredRelease extends Release {
  previousReleaseId: string | null;
}

/** A channel as stored: its current release's fields and that release's id. */
export interface StoredChannel extends Channel {
  releaseId: string;
}

/**
 * Channels and their releases (issue 32). `create` points the channel at the new release only while the
 * channel still points at `expectedReleaseId` (null: it must not exist yet; left out: whatever it points
 * at), else `conflict` with `details.channel`, the channel as it now is. SQLite, PostgreSQL and in-memory,
 * under one conformance suite (`release-store-cases.ts`).
 */
export interface ReleaseStore {
  create(release: StoredRelease, options?: { expectedReleaseId?: string | null }): Promise<StoredRelease>;
  /** The agent's channels, by name. */
  listChannels(agentId: string): Promise<StoredChannel[]>;
  /**
   * The channel as it is now; with `maxAgeMs`, as read at most that long ago: what serving requests ask, so
   * that PostgreSQL need not be asked on each (`ChannelCache`). Stores whose reads are cheap read it now.
   */
  getChannel(
    agentId: string,
    name: string,
    options?: { maxAgeMs?: number },
  ): Promise<StoredChannel | undefined>;
  /** Newest first; of one channel when given. */
  list(agentId: string, options?: { channel?: string; limit?: number }): Promise<StoredRelease[]>;
  get(id: string): Promise<StoredRelease | undefined>;
  /** Forgets the agent's channels and releases (the agent was deleted with `force`). */
  deleteAgent(agentId: string): Promise<void>;
}

/** The channel a release makes. */
export function getChannelOf(release: StoredRelease): StoredChannel {
  return {
    name: release.channel,
    version: release.version,
    releasedAt: release.releasedAt,
    releasedBy: release.releasedBy,
    notes: release.notes,
    testRunId: release.testRunId,
    overrideReason: release.overrideReason,
    shadowReportId: release.shadowReportId ?? null,
    releaseId: release.id,
  };
}
