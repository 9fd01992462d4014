import type { RunEvent } from "@waddle/protocol";
import { getWaitingFor } from "../run-outcome.js";

/**
 * The progress message an MCP client sees for a run event, or undefined for events that are not a step:
 * the start (with the run id), each action the agent takes, and a pause.
 */
export function getProgressMessage(event: RunEvent): string | undefined {
  switch (event.type) {
    case "run_started":
      return `Run ${event.runId} started.`;
    case "action": {
      const node = event.data.next_node;
      if (node === "final_response") return `Step ${event.step + 1}: answering.`;
      // Its branches are told by `parallel_start`.
      if (node === "parallel") return undefined;
      return `Step ${event.step + 1}: ${node}${event.data.source === "auto_seq" ? " (auto-seq)" : ""}.`;
    }
    case "parallel_start":
      return `Step ${event.step + 1}: ${event.data.steps.map((step) => step.node).join(", ")} in parallel.`;
    case "pause":
      return `Paused (${event.data.reason}): waiting for ${getWaitingFor(event.data)}.`;
    default:
      return undefined;
  }
}
