import type { RunEventData, StuckAction } from "@waddle/protocol";
import type { RunViewDraft } from "./run-view-draft.js";

const OUTCOMES: Record<StuckAction, string> = {
  nudge: "told the model to change course or answer",
  pause: "paused for a person to let it go on or stop it",
  finish: "finished with the best answer so far",
};

/** The tools of a `stuck_detected` are marked stuck on the canvas (the mark stays after the run). */
export function applyStuckDetected(
  draft: RunViewDraft,
  event: { seq: number; data: RunEventData<"stuck_detected"> },
): void {
  const { pattern, count, action } = event.data;
  const message = getStuckText(event.data);
  for (const tool of event.data.tools) {
    const node = draft.node(tool);
    node.stuck = { pattern, count, action, message };
    node.changedSeq = event.seq;
  }
}

/** "search_docs called 3 times with the same arguments → finished with the best answer so far" */
export function getStuckText(data: RunEventData<"stuck_detected">): string {
  const what = data.message ?? `${data.pattern} of ${data.tools.join(", ")} (${data.count} times)`;
  return `${what} → ${OUTCOMES[data.action]}`;
}
