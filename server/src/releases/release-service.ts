import { randomBytes } from "node:crypto";
import type { Channel, Release } from "@waddle/protocol";
import { getRunAgent } from "../runs/get-run-agent.js";
import { ApiError, notFound } from "../shared/api-error.js";
import type { StoredChannel, StoredRelease } from "../store/releases/release-store.js";
import { isStoreError, type WaddleStore } from "../store/waddle-store.js";
import { runReleaseGate, type ReleaseGateOptions } from "./release-gate.js";
import type { NotifyFunction } from "../notifications/notify.js";

/** Who releases, as the audit log names them. */
export interface ReleaseRequest {
  agentId: string;
  channel: string;
  version: number;
  notes?: string | undefined;
  expectedVersion?: number | null | undefined;
  overrideReason?: string | undefined;
  /** A shadow report of this agent whose candidate is `version`, kept with the release. */
  shadowReportId?: string | undefined;
  releasedBy: string;
}

/** A channel as the API shows it (without the release id it points at). */
export function toChannel(channel: StoredChannel): Channel {
  const { releaseId: _releaseId, ...shown } = channel;
  return { ...shown, shadowReportId: shown.shadowReportId ?? null };
}

/** A release as the API shows it. */
export function toRelease(release: StoredRelease): Release {
  const { previousReleaseId: _previous, ...shown } = release;
  return { ...shown, shadowReportId: shown.shadowReportId ?? null };
}

const createReleaseId = () => `rel_${randomBytes(6).toString("hex")}`;

/**
 * Releases and rollbacks: checks the agent and version, runs the gate, then moves the channel with
 * compare-and-set against what it read first (409 `channel_moved` with the channel as it now is). Each
 * release and rollback written notifies `release.created`.
 */
export class ReleaseService {
  constructor(private readonly options: ReleaseGateOptions & { notify?: NotifyFunction | undefined }) {}

  async release(request: ReleaseRequest): Promise<StoredRelease> {
    const { store } = this.options;
    const { agentId, channel: name, version } = request;
    if (!(await store.getAgent(agentId))) throw notFound("Agent", agentId);
    await getRunAgent(store, { agentId, agentVersion: version });
    if (request.shadowReportId !== undefined) await checkShadowReport(store, request);
    const current = await store.releases.getChannel(agentId, name);
    if (request.expectedVersion !== undefined && request.expectedVersion !== (current?.version ?? null)) {
      throw channelMoved(name, current);
    }
    const gate = await runReleaseGate({
      ...this.options,
      agentId,
      version,
      overrideReason: request.overrideReason,
    });
    return this.write(
      {
        id: createReleaseId(),
        agentId,
        channel: name,
        version,
        previousVersion: current?.version ?? null,
        previousReleaseId: current?.releaseId ?? null,
        kind: "release",
        releasedAt: new Date().toISOString(),
        releasedBy: request.releasedBy,
        notes: request.notes ?? null,
        shadowReportId: request.shadowReportId ?? null,
        ...gate,
      },
      request.expectedVersion === undefined ? undefined : (current?.releaseId ?? null),
    );
  }

  /**
   * Points the channel back at the release before its current one; gated like a release unless that
   * version passed a gate before. A second rollback goes one further back.
   */
  async rollback(request: Omit<ReleaseRequest, "version" | "expectedVersion">): Promise<StoredRelease> {
    const { store } = this.options;
    const { agentId, channel: name } = request;
    if (!(await store.getAgent(agentId))) throw notFound("Agent", agentId);
    const current = await store.releases.getChannel(agentId, name);
    if (!current) {
      throw new ApiError("not_found", `Agent "${agentId}" has no channel "${name}".`, {
        agentId,
        channel: name,
      });
    }
    const latest = await store.releases.get(current.releaseId);
    const previous = latest?.previousReleaseId
      ? await store.releases.get(latest.previousReleaseId)
      : undefined;
    if (!previous) {
      throw new ApiError(
        "no_previous_release",
        `Channel "${name}" of "${agentId}" has no earlier release to roll back to.`,
        { channel: toChannel(current) },
      );
    }
    await getRunAgent(store, { agentId, agentVersion: previous.version });
    const passed = (await store.releases.list(agentId)).find(
      (release) =>
        release.version === previous.version && release.testRunId !== null && !release.overrideReason,
    );
    const gate = passed
      ? { testRunId: passed.testRunId, overrideReason: null }
      : await runReleaseGate({
          ...this.options,
          agentId,
          version: previous.version,
          overrideReason: request.overrideReason,
        });
    return this.write(
      {
        id: createReleaseId(),
        agentId,
        channel: name,
        version: previous.version,
        previousVersion: current.version,
        previousReleaseId: previous.previousReleaseId,
        kind: "rollback",
        releasedAt: new Date().toISOString(),
        releasedBy: request.releasedBy,
        notes: request.notes ?? null,
        ...gate,
      },
      current.releaseId,
    );
  }

  private async write(
    release: StoredRelease,
    expectedReleaseId: string | null | undefined,
  ): Promise<StoredRelease> {
    let written: StoredRelease;
    try {
      written = await this.options.store.releases.create(
        release,
        expectedReleaseId === undefined ? {} : { expectedReleaseId },
      );
    } catch (error) {
      if (!isStoreError(error) || error.code !== "conflict") throw error;
      const now = await this.options.store.releases.getChannel(release.agentId, release.channel);
      throw channelMoved(release.channel, now);
    }
    this.options.notify?.("release.created", {
      agentId: written.agentId,
      releaseId: written.id,
      kind: written.kind,
      channel: written.channel,
      version: written.version,
      previousVersion: written.previousVersion,
      releasedBy: written.releasedBy,
    });
    return written;
  }
}

/** A report of another agent is unknown here (404); one of another candidate version is 422. */
async function checkShadowReport(store: WaddleStore, request: ReleaseRequest): Promise<void> {
  const id = request.shadowReportId!;
  const report = await store.shadows.get(id);
  if (!report || report.agentId !== request.agentId)
    throw notFound(`Shadow report of "${request.agentId}"`, id);
  if (report.candidateVersion === request.version) return;
  throw new ApiError(
    "shadow_report_mismatch",
    `Shadow report "${id}" compared version ${report.candidateVersion}, not version ${request.version} being ` +
      `released: attach a report whose candidate is ${request.version}, or run one (POST /api/agents/` +
      `${request.agentId}/shadow {candidate: ${request.version}}).`,
    { shadowReportId: id, candidateVersion: report.candidateVersion, version: request.version },
  );
}

function channelMoved(name: string, now: StoredChannel | undefined): ApiError {
  return new ApiError(
    "channel_moved",
    `Channel "${name}" moved meanwhile: it now serves ${now ? `version ${now.version}` : "nothing"}. ` +
      "Look again and release with that expectedVersion.",
    { channel: now ? toChannel(now) : null },
  );
}
