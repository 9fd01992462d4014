import type { RunRecord, SideEffect } from "@waddle/protocol";
import type { McpSideEffectsSource } from "../mcp-client/mcp-client-manager.js";
import type { WaddleStore } from "../store/waddle-store.js";

/** A tool that a run called and that changes something outside: running it again repeats that. */
export interface SideEffectCall {
  tool: string;
  sideEffects: Extract<SideEffect, "write" | "external" | "stateful">;
}

const REPEATED_BY_A_RETRY = new Set<SideEffect>(["write", "external", "stateful"]);

/**
 * The tools with `write`, `external` or `stateful` side effects that a run started (a started call may
 * have had its effect even when it failed), each once, in the order they first ran; from the run's events
 * and the version of the agent that ran. An mcp tool counts with the side effects its server's annotations
 * give (what the run used), when `mcp` knows them.
 */
export async function getSideEffectCalls(
  store: WaddleStore,
  run: RunRecord,
  mcp?: McpSideEffectsSource,
): Promise<SideEffectCall[]> {
  const started = new Set<string>();
  for (const event of await store.listEvents(run.id)) {
    if (event.type === "tool_start") started.add(event.data.tool);
  }
  if (started.size === 0) return [];
  const agent = await store.getAgentVersion(run.agentId, run.agentVersion);
  const calls: SideEffectCall[] = [];
  for (const tool of started) {
    const spec = agent?.spec.tools.find((candidate) => candidate.name === tool);
    const impl = spec?.impl;
    const sideEffects =
      (impl?.kind === "mcp" ? mcp?.getListedSideEffects(impl.server, impl.tool) : undefined) ??
      spec?.sideEffects;
    if (sideEffects !== undefined && REPEATED_BY_A_RETRY.has(sideEffects)) {
      calls.push({ tool, sideEffects: sideEffects as SideEffectCall["sideEffects"] });
    }
  }
  return calls;
}
