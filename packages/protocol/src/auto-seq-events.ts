// The events of auto-seq detection and execution (seed 003), with their privacy-safe payload fingerprints.
import { z } from "zod";
import { createRunEventEnvelope } from "./run-event-envelope.js";

const FingerprintFields = {
  payload_fingerprint: z.string().optional(),
  payload_type: z.string().optional(),
  payload_keys_count: z.int().nonnegative().optional(),
  prev_step_next_node: z.string().nullable().optional(),
};

export const AutoSeqDetectedUniqueEvent = createRunEventEnvelope(
  "auto_seq_detected_unique",
  z.looseObject({ tool_name: z.string(), candidate_count: z.literal(1).optional(), ...FingerprintFields }),
);
export const AutoSeqDetectedAmbiguousEvent = createRunEventEnvelope(
  "auto_seq_detected_ambiguous",
  z.looseObject({ candidates: z.array(z.string()), candidate_count: z.int().min(2), ...FingerprintFields }),
);
export const AutoSeqDetectedNoneEvent = createRunEventEnvelope(
  "auto_seq_detected_none",
  z.looseObject(FingerprintFields),
);
export const AutoSeqSkippedEvent = createRunEventEnvelope(
  "auto_seq_skipped",
  z.looseObject({
    reason: z.enum([
      "previous_step_parallel",
      "non_structured_observation",
      "no_steps",
      "pending_actions_present",
      "repeated_fingerprint",
      "after_queued_action",
    ]),
    ...FingerprintFields,
  }),
);
export const AutoSeqExecutedEvent = createRunEventEnvelope(
  "auto_seq_executed",
  z.looseObject({ tool_name: z.string(), prev_step_next_node: z.string().nullable().optional() }),
);
