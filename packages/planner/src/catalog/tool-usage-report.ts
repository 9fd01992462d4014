import { z } from "zod";
import { PlannerError } from "../errors/planner-error.js";
import { formatIssues } from "../util/format-issues.js";

/**
 * Model usage a tool incurred itself (an LLM tool's call, a subagent's run), reported through
 * `ctx.reportUsage`: added to the run's usage and cost before the next budget check, and shown as an
 * `llm_call` event with this purpose (docs/tool-usage.md).
 */
export const ToolUsageReport = z.object({
  provider: z.string().min(1).max(100),
  model: z.string().min(1).max(200),
  promptTokens: z.int().nonnegative(),
  completionTokens: z.int().nonnegative(),
  reasoningTokens: z.int().nonnegative().optional(),
  /** USD of the call when the client knows it; else usage × the run's price table (0 for unknown models). */
  costUsd: z.number().nonnegative().optional(),
  latencyMs: z.number().nonnegative().optional(),
  /** Why the reply ended, as the client said (`LlmResult.finishReason`: `stop`, `length`, …). */
  finishReason: z.string().min(1).max(100).optional(),
  /** True when the embedded offline model answered. */
  offline: z.boolean().optional(),
  /** `guard`: an `llm` guard check's judge (docs/guides/guardrails.md). */
  purpose: z.enum(["tool", "subagent", "guard"]).default("tool"),
});
export type ToolUsageReport = z.infer<typeof ToolUsageReport>;
export type ToolUsageReportInput = z.input<typeof ToolUsageReport>;

/** Validates a report at the tool boundary; throws `invalid_usage_report` naming the field to fix. */
export function parseToolUsageReport(input: unknown, toolName: string): ToolUsageReport {
  const parsed = ToolUsageReport.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new PlannerError(
    "invalid_usage_report",
    `${toolName} reported usage the planner cannot count (${formatIssues(parsed.error.issues)}): ` +
      "pass provider, model and whole, non-negative token counts.",
    { details: { tool: toolName } },
  );
}
