import type { RunEventData } from "@waddle/protocol";
import type { TransitionDetection } from "./auto-seq.js";

/** The one detection event of an iteration, ready for the run's event envelope. */
export type AutoSeqDetectionEvent =
  | { type: "auto_seq_detected_unique"; data: RunEventData<"auto_seq_detected_unique"> }
  | { type: "auto_seq_detected_ambiguous"; data: RunEventData<"auto_seq_detected_ambiguous"> }
  | { type: "auto_seq_detected_none"; data: RunEventData<"auto_seq_detected_none"> }
  | { type: "auto_seq_skipped"; data: RunEventData<"auto_seq_skipped"> };

/**
 * Builds the detection event for a result (docs/auto-seq.md: `candidates` for ambiguous, the
 * fingerprint fields whenever there was a last step). `prevStepNextNode` is the last step's `next_node`,
 * or null before the first step.
 */
export function getAutoSeqEventData(
  result: TransitionDetection,
  prevStepNextNode: string | null | undefined,
): AutoSeqDetectionEvent {
  const common = { ...result.fingerprint, prev_step_next_node: prevStepNextNode ?? null };
  switch (result.status) {
    case "unique":
      return {
        type: "auto_seq_detected_unique",
        data: { tool_name: result.candidates[0] ?? "", candidate_count: 1, ...common },
      };
    case "ambiguous":
      return {
        type: "auto_seq_detected_ambiguous",
        data: { candidates: [...result.candidates], candidate_count: result.candidates.length, ...common },
      };
    case "none":
      return { type: "auto_seq_detected_none", data: common };
    case "skipped":
      return { type: "auto_seq_skipped", data: { reason: result.reason ?? "no_steps", ...common } };
  }
}
