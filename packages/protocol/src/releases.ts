import { z } from "zod";

/** A channel's name: `production`, `staging` or any lower-case name of up to 32 characters. */
export const CHANNEL_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;
export const ChannelName = z
  .string()
  .regex(CHANNEL_NAME_PATTERN, "must be a channel name such as production or staging: [a-z][a-z0-9-]{0,31}");
export type ChannelName = z.infer<typeof ChannelName>;

/** The channel that serves callers who name no version, once an agent has it. */
export const PRODUCTION_CHANNEL = "production";
/**
 * Reserved: never a channel, it asks for the latest saved version whatever the channels say (the designer's
 * own Run and Chat send it).
 */
export const LATEST_CHANNEL = "latest";

/** Refusals of releases (`docs/guides/releases.md`). */
export const RELEASE_ERROR_CODES = [
  /** `expectedVersion` is stale: `details.channel` is the channel as it now is. */
  "channel_moved",
  /** The release's test run has failing cases: `details.testRunId`, `details.failures`. */
  "tests_failed",
  /** A rollback of a channel with no earlier release to go back to. */
  "no_previous_release",
  /** Deleting an agent with releases without `?force=true`: `details.channels`. */
  "agent_has_releases",
  /** `shadowReportId` names a report of another agent or of another candidate version than the release's. */
  "shadow_report_mismatch",
] as const;

/** One release: a channel pointed at a version, by whom, when, why, and what gated it. */
export const Release = z.object({
  id: z.string(),
  agentId: z.string(),
  channel: ChannelName,
  version: z.int().positive(),
  /** The version the channel pointed at before (null: the channel is new). */
  previousVersion: z.int().positive().nullable(),
  kind: z.enum(["release", "rollback"]),
  releasedAt: z.string(),
  releasedBy: z.string(),
  notes: z.string().nullable(),
  /** The test run that gated it (null: the agent had no suite, or the version had passed before). */
  testRunId: z.string().nullable(),
  /** An admin released despite failing tests, for this reason. */
  overrideReason: z.string().nullable(),
  /** A shadow report attached to the release (`POST /api/agents/:id/shadow`). */
  shadowReportId: z.string().nullable().optional(),
});
export type Release = z.infer<typeof Release>;

/** A channel as `GET /api/agents/:id/channels` lists it: where it points and its latest release. */
export const Channel = z.object({
  name: ChannelName,
  version: z.int().positive(),
  releasedAt: z.string(),
  releasedBy: z.string(),
  notes: z.string().nullable(),
  testRunId: z.string().nullable(),
  overrideReason: z.string().nullable().optional(),
  /** The shadow report attached to the release the channel points at (null: none). */
  shadowReportId: z.string().nullable().optional(),
});
export type Channel = z.infer<typeof Channel>;
export const ChannelsResponse = z.object({ channels: z.array(Channel) });
export type ChannelsResponse = z.infer<typeof ChannelsResponse>;

const Notes = z.string().max(4_000);

/** A channel one may release to: any name but the reserved `latest`. */
export const ReleaseChannelName = ChannelName.refine((name) => name !== LATEST_CHANNEL, {
  message: `"${LATEST_CHANNEL}" is reserved (it means the latest save): choose another channel name`,
});

/** `POST /api/agents/:id/releases`; `expectedVersion` (null: the channel must be new) is compare-and-set. */
export const CreateReleaseRequest = z.strictObject({
  version: z.int().positive(),
  channel: ReleaseChannelName,
  notes: Notes.optional(),
  expectedVersion: z.int().positive().nullable().optional(),
  override: z.strictObject({ reason: z.string().trim().min(1).max(2_000) }).optional(),
  /** Attaches a stored shadow report of this agent to the release. */
  shadowReportId: z.string().min(1).max(64).optional(),
});
export type CreateReleaseRequest = z.infer<typeof CreateReleaseRequest>;

/** `POST /api/agents/:id/channels/:channel/rollback`. */
export const RollbackRequest = z.strictObject({
  notes: Notes.optional(),
  override: CreateReleaseRequest.shape.override,
});
export type RollbackRequest = z.infer<typeof RollbackRequest>;

export const ReleasesQuery = z.strictObject({ channel: ChannelName.optional() });
export type ReleasesQuery = z.infer<typeof ReleasesQuery>;
export const ReleasesResponse = z.object({ releases: z.array(Release) });
export type ReleasesResponse = z.infer<typeof ReleasesResponse>;

/** Where a caller asks an agent to run: a channel, a version, or neither (production, else the latest save). */
export const RunTarget = z.object({
  channel: z.union([ChannelName, z.literal(LATEST_CHANNEL)]).optional(),
  version: z.int().positive().optional(),
});
export type RunTarget = z.infer<typeof RunTarget>;
