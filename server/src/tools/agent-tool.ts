import type { AgentImpl, FinalPayload, ToolSpec } from "@waddle/protocol";
import type { ToolRunner, ToolUsageReportInput } from "@waddle/planner";
import type { z } from "zod";

/** What a subagent's models spent, counted against the parent run. */
export type SubagentUsage = Omit<ToolUsageReportInput, "purpose">;

/**
 * Runs another saved agent to the end and returns its final payload (and the reason it finished); it
 * reports what the subagent's models spent through `reportUsage`, also when the subagent fails.
 */
export type RunSubagent = (options: {
  agentId: string;
  query: string;
  toolContext: Readonly<Record<string, unknown>>;
  signal: AbortSignal;
  maxIters?: number;
  reportUsage: (usage: SubagentUsage) => void;
}) => Promise<FinalPayload & { reason: string }>;

/** The query a subagent gets: `args.query`, else `args.task`, `args.question`, else the args as JSON. */
export function getSubagentQuery(args: Record<string, unknown>): string {
  for (const key of ["query", "task", "question", "text"]) {
    const value = args[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return JSON.stringify(args);
}

/** Runs an `agent` tool: the saved agent `impl.agentId` as a subagent, with the caller's tool context. */
export function createAgentToolRunner(options: {
  tool: ToolSpec & { impl: z.output<typeof AgentImpl> };
  runSubagent: RunSubagent;
}): ToolRunner {
  const { impl } = options.tool;
  return async (args, context) =>
    options.runSubagent({
      agentId: impl.agentId,
      query: getSubagentQuery(args),
      toolContext: context.toolContext,
      signal: context.signal,
      ...(impl.maxIters ? { maxIters: impl.maxIters } : {}),
      reportUsage: (usage) => context.reportUsage({ ...usage, purpose: "subagent" }),
    });
}
