// @waddle/server/runtime: what an exported agent (`GET /api/agents/:id/export?format=ts`) imports to run in
// its caller's process with the server's own tool kinds. Small on purpose: no Express, no sockets, no store.
export { collectToolDefinitions, createAgentRuntime } from "./create-agent-runtime.js";
export type { AgentRuntime, AgentRuntimeOptions } from "./create-agent-runtime.js";
export { runAgent } from "./run-agent.js";
export type { RunAgentOptions } from "./run-agent.js";
export { AgentSpec } from "@waddle/protocol";
export type { AgentSpecInput, RunEvent } from "@waddle/protocol";
export type { PlannerOutcome } from "@waddle/planner";
