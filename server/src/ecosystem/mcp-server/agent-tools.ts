import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { RunStatus, type AgentSummary } from "@waddle/protocol";
import { z } from "zod";
import { getFailureText, type AgentRunOutcome } from "../run-outcome.js";

/** What an agent tool takes: the question, as `POST /api/runs` takes it. */
export const AgentToolArguments = z.strictObject({ query: z.string().min(1).max(100_000) });

const INPUT_SCHEMA = {
  type: "object",
  properties: { query: { type: "string", minLength: 1, description: "What to ask the agent." } },
  required: ["query"],
  additionalProperties: false,
} satisfies Tool["inputSchema"];

const OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    runId: { type: "string", description: "The Waddle run: GET /api/runs/<runId>, and on the canvas." },
    status: { type: "string", enum: RunStatus.options },
    answer: { type: ["string", "null"], description: "The agent's answer; null when it paused or failed." },
    pause: { type: "object", description: "Why the run paused, what it waits for, how to resume it." },
    error: { type: "object", description: "Why the run failed." },
  },
  required: ["runId", "status", "answer"],
} satisfies Tool["outputSchema"];

/** A tool's name and the version it runs: the agent's own, or `<agent>.<channel>` for a channel. */
export interface AgentToolTarget {
  name: string;
  version: number;
  channel?: string;
}

/**
 * One MCP tool per saved agent and per channel: the agent id (what production serves, the latest save
 * without it) or `<agent>.<channel>` as the name, since MCP tool names allow no `@`; `{query}` in, the
 * answer and run id out.
 */
export function getAgentTool(agent: AgentSummary, target?: AgentToolTarget): Tool {
  const description = agent.description?.trim() || `The Waddle agent "${agent.name}".`;
  const version = target?.version ?? agent.version;
  const serves = target?.channel ? `${target.channel}, version ${version}` : `version ${version}`;
  return {
    name: target?.name ?? agent.id,
    title: target?.channel ? `${agent.name} (${target.channel})` : agent.name,
    description:
      `${description} Runs the Waddle agent "${agent.id}" (${serves}) on the query; ` +
      "a run that pauses for a person answers with how to resume it.",
    inputSchema: INPUT_SCHEMA,
    outputSchema: OUTPUT_SCHEMA,
  };
}

/** A run's outcome as a tool result: text for the model, `{runId, status, answer}` for programs. */
export function getAgentToolResult(outcome: AgentRunOutcome): CallToolResult {
  switch (outcome.kind) {
    case "answer":
      return {
        content: [{ type: "text", text: outcome.answer }],
        structuredContent: { runId: outcome.runId, status: outcome.status, answer: outcome.answer },
      };
    case "pause":
      return {
        content: [{ type: "text", text: outcome.text }],
        structuredContent: {
          runId: outcome.runId,
          status: outcome.status,
          answer: null,
          pause: { ...outcome.pause },
        },
      };
    case "failure":
      return {
        content: [{ type: "text", text: getFailureText(outcome) }],
        structuredContent: {
          runId: outcome.runId,
          status: outcome.status,
          answer: null,
          error: outcome.error,
        },
        isError: true,
      };
  }
}
