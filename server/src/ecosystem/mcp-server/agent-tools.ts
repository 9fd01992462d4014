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

/** One MCP tool per saved agent: its id as the name, `{query}` in, the answer and run id out. */
export function getAgentTool(agent: AgentSummary): Tool {
  const description = agent.description?.trim() || `The Waddle agent "${agent.name}".`;
  return {
    name: agent.id,
    title: agent.name,
    description:
      `${description} Runs the Waddle agent "${agent.id}" (version ${agent.version}) on the query; ` +
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
