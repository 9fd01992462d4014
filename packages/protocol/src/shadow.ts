import { z } from "zod";
import { Usage } from "./planner-action.js";
import { ChannelName } from "./releases.js";

/**
 * Shadow comparison (issue 32): a candidate version replays the recent runs and turns a baseline served,
 * its tool calls answered only from the recordings. Nothing a shadow does reaches a tool.
 */

/** The code of a candidate's tool call that matches no recorded call: it is failed, never executed. */
export const NOT_RECORDED = "not_recorded";

/** `POST /api/agents/:id/shadow`. `candidate`: a version or a channel; `baseline` defaults to `production`. */
export const ShadowRequest = z.strictObject({
  candidate: z.union([z.int().positive(), ChannelName]),
  baseline: ChannelName.optional(),
  limit: z.int().min(1).max(100).optional(),
});
export type ShadowRequest = z.infer<typeof ShadowRequest>;

/** One tool call on a path, as the report compares them. */
export const ShadowToolCall = z.object({
  tool: z.string(),
  args: z.unknown(),
  /** Candidate side only: the call had no recording, so it failed as `not_recorded` (the tool never ran). */
  notRecorded: z.boolean().optional(),
});
export type ShadowToolCall = z.infer<typeof ShadowToolCall>;

/** What one side did with the case: its tool path, answer and figures. */
export const ShadowSide = z.object({
  /** Baseline: the recorded run; candidate: the shadow run (not listed in history). */
  version: z.int().positive(),
  status: z.string(),
  answer: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  tools: z.array(ShadowToolCall),
  usage: Usage,
  durationMs: z.number().nonnegative(),
});
export type ShadowSide = z.infer<typeof ShadowSide>;

/** One replayed run or session turn. */
export const ShadowCase = z.object({
  /** The recorded run the case replays. */
  runId: z.string(),
  /** The session and turn (1-based) when the run was a chat turn; its earlier turns were the context. */
  sessionId: z.string().nullable(),
  turn: z.int().positive().nullable(),
  query: z.string(),
  baseline: ShadowSide,
  candidate: ShadowSide,
  /** The same tool calls (names and args, compared as JSON) in the same order: `partsAt` is null. */
  sameTools: z.boolean(),
  /**
   * Where the paths part: the 0-based index of the first call that differs in tool or args (or where the
   * shorter path ends), null when they don't.
   */
  partsAt: z.int().nonnegative().nullable(),
  sameAnswer: z.boolean(),
  /** Candidate tool calls that were refused as `not_recorded`. */
  notRecorded: z.int().nonnegative(),
});
export type ShadowCase = z.infer<typeof ShadowCase>;

const SideTotals = z.object({
  usage: Usage,
  durationMs: z.number().nonnegative(),
  failed: z.int().nonnegative(),
});

export const ShadowTotals = z.object({
  cases: z.int().nonnegative(),
  sameTools: z.int().nonnegative(),
  sameAnswer: z.int().nonnegative(),
  notRecorded: z.int().nonnegative(),
  baseline: SideTotals,
  candidate: SideTotals,
});
export type ShadowTotals = z.infer<typeof ShadowTotals>;

/** A stored shadow comparison: `GET /api/agents/:id/shadow/:reportId`. */
export const ShadowReport = z.object({
  id: z.string(),
  agentId: z.string(),
  candidateVersion: z.int().positive(),
  /** The channel whose traffic was replayed and the version it pointed at (null: it had no release). */
  baseline: z.object({ channel: ChannelName, version: z.int().positive().nullable() }),
  createdAt: z.string(),
  createdBy: z.string(),
  /** Said when there was nothing to replay ("… served no ended runs yet"). */
  note: z.string().nullable(),
  cases: z.array(ShadowCase),
  totals: ShadowTotals,
});
export type ShadowReport = z.infer<typeof ShadowReport>;

/** `GET /api/agents/:id/shadow`: the reports, newest first, without their cases. */
export const ShadowReportSummary = ShadowReport.omit({ cases: true });
export type ShadowReportSummary = z.infer<typeof ShadowReportSummary>;
export const ShadowReportsResponse = z.object({ reports: z.array(ShadowReportSummary) });
export type ShadowReportsResponse = z.infer<typeof ShadowReportsResponse>;
