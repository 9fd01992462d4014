import { z } from "zod";
import { AgentSpec } from "./agent-spec.js";

export const AGENT_SPEC_SCHEMA_ID = "https://waddle.dev/schema/agent-spec.json";

/**
 * The JSON Schema (draft 2020-12) of AgentSpec as written by hand or by an editor: fields with defaults
 * are optional. Produced by zod's own converter; cross references are checked by `validateAgentSpec` only.
 */
export const agentSpecJsonSchema: Record<string, unknown> = {
  ...z.toJSONSchema(AgentSpec, { io: "input", target: "draft-2020-12", unrepresentable: "any" }),
  $id: AGENT_SPEC_SCHEMA_ID,
  title: "Waddle AgentSpec",
  description:
    "One agent: its LLM, planner options, tools, edges, parallel groups, planning hints and layout.",
};
