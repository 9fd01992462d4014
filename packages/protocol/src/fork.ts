import { z } from "zod";

/** What a fork changes at its fork point (`POST /api/runs/:id/fork`, docs in docs/guides/fork.md). */
export const ForkEdit = z.discriminatedUnion("kind", [
  /** The step's tool result, as if the tool had returned it (checked against the tool's out schema). */
  z.strictObject({ kind: z.literal("observation"), value: z.unknown() }),
  /** The step's tool call with other arguments, which runs (checked against the tool's args schema). */
  z.strictObject({ kind: z.literal("args"), value: z.record(z.string(), z.unknown()) }),
  /** The model's reply at the step, as if the model had sent it (parsed and repaired as a real reply). */
  z.strictObject({ kind: z.literal("llm_reply"), value: z.string().min(1).max(200_000) }),
  /** Another query: only with `fromStep` 0. */
  z.strictObject({ kind: z.literal("query"), value: z.string().min(1).max(100_000) }),
]);
export type ForkEdit = z.infer<typeof ForkEdit>;
export type ForkEditKind = ForkEdit["kind"];
export const FORK_EDIT_KINDS = ["observation", "args", "llm_reply", "query"] as const;

/**
 * `recorded` (default): after the fork point a call is served from the parent's record when provably the
 * same (the whole LLM request; a `pure` or `read` tool with the same definition and args); `none`: live.
 */
export const ForkReuse = z.enum(["recorded", "none"]);
export type ForkReuse = z.infer<typeof ForkReuse>;

export const ForkRunRequest = z.strictObject({
  /** A step number as it appears in the parent's events (`step`). */
  fromStep: z.int().nonnegative(),
  edit: ForkEdit.optional(),
  /** Run the fork on another saved version of the agent (default: the parent's). */
  agentVersion: z.int().positive().optional(),
  reuse: ForkReuse.default("recorded"),
  /** Secrets and opaque values for the fork's tools (never stored), as for `POST /api/runs`. */
  toolContext: z.record(z.string(), z.unknown()).optional(),
});
export type ForkRunRequest = z.infer<typeof ForkRunRequest>;
export type ForkRunRequestInput = z.input<typeof ForkRunRequest>;

/** On a fork's run record: the run and step it was forked from. */
export const ForkOf = z.object({ runId: z.string(), step: z.int().nonnegative() });
export type ForkOf = z.infer<typeof ForkOf>;
