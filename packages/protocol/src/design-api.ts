import { z } from "zod";
import { Slug } from "./names.js";

/**
 * `POST /api/tools/test`: one tool of a saved agent (`agentId`, optionally `agentVersion`) or of an unsaved
 * spec, called once with `args` through the server's real executor. `confirm` must be true for tools with
 * write/external/stateful side effects or that require approval.
 */
export const ToolTestRequest = z.union([
  z.strictObject({
    agentId: Slug,
    agentVersion: z.int().positive().optional(),
    tool: z.string().min(1).max(64),
    args: z.record(z.string(), z.unknown()).default({}),
    confirm: z.boolean().optional(),
  }),
  z.strictObject({
    spec: z.record(z.string(), z.unknown()),
    tool: z.string().min(1).max(64),
    args: z.record(z.string(), z.unknown()).default({}),
    confirm: z.boolean().optional(),
  }),
]);
export type ToolTestRequest = z.infer<typeof ToolTestRequest>;

/** What one test call gave: the result or the error, how long it took, and an llm tool's rendered prompt. */
export const ToolTestResponse = z.object({
  ok: z.boolean(),
  result: z.unknown().optional(),
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    })
    .optional(),
  latencyMs: z.number().nonnegative(),
  attempts: z.int().nonnegative().optional(),
  prompt: z.string().optional(),
});
export type ToolTestResponse = z.infer<typeof ToolTestResponse>;

/** `GET/PUT /api/agents/:id/draft`: the unsaved edits of an agent, kept on the server. */
export const AgentDraft = z.object({
  agentId: Slug,
  /** The version the edits started from. */
  baseVersion: z.int().positive().nullable(),
  /** The edited spec as the designer holds it (it may not validate yet). */
  spec: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
});
export type AgentDraft = z.infer<typeof AgentDraft>;

export const PutDraftRequest = z.strictObject({
  baseVersion: z.int().positive().nullable(),
  spec: z.record(z.string(), z.unknown()),
});
export type PutDraftRequest = z.infer<typeof PutDraftRequest>;
