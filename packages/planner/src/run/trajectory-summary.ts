import { z } from "zod";

/** The compact state that replaces a long trajectory in the prompt (docs/summarization.md). */
export const TrajectorySummary = z.object({
  goals: z.array(z.string().max(2_000)).max(10),
  facts: z.record(z.string(), z.unknown()),
  pending: z.array(z.string().max(500)).max(20),
  last_output_digest: z.string().max(4_000),
});
export type TrajectorySummary = z.infer<typeof TrajectorySummary>;
