import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { SideEffect } from "@waddle/protocol";

/**
 * The side effects an MCP tool's annotations give, or undefined when it gives none that say. Only hints the
 * server states count (MCP's defaults for missing hints are the most cautious, which a saved spec may
 * already be):
 *
 * | annotations                                   | side effects |
 * | --------------------------------------------- | ------------ |
 * | `readOnlyHint: true`                          | `read`       |
 * | `openWorldHint: true` (not read-only)         | `external`   |
 * | `destructiveHint: true` (closed world)        | `write`      |
 * | `destructiveHint: false, openWorldHint: false`| `stateful`   |
 *
 * They win over what a spec saved for the tool, at every run (see `McpClientManager.applyListings`).
 */
export function getAnnotatedSideEffects(annotations: Tool["annotations"]): SideEffect | undefined {
  if (annotations === undefined) return undefined;
  if (annotations.readOnlyHint === true) return "read";
  if (annotations.openWorldHint === true) return "external";
  if (annotations.destructiveHint === true) return "write";
  if (annotations.destructiveHint === false && annotations.openWorldHint === false) return "stateful";
  return undefined;
}

/** Why Waddle cannot call a listed tool, or undefined when it can. */
export function getUnavailableReason(tool: Tool): string | undefined {
  if (tool.execution?.taskSupport === "required") {
    return 'it runs only as an MCP task (execution.taskSupport "required"), which Waddle does not run yet';
  }
  return undefined;
}
