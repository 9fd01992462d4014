import { z } from "zod";

/**
 * Every run produces one ordered stream of events in this envelope: `seq` starts at 1 and has no gaps.
 * Payloads carry bounded previews of large values (see `Preview`), never secrets. Names and fields that
 * the seeds define (`llm_stream_chunk`, `auto_seq_*`, `summary_compacted`, `failure`) are kept verbatim.
 */
export const createRunEventEnvelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    runId: z.string().min(1),
    seq: z.int().positive(),
    ts: z.number().nonnegative(),
    step: z.int().nonnegative(),
    type: z.literal(type),
    data,
    /** A fork's prefix: copied from the parent run's events, not executed again. */
    replayed: z.literal(true).optional(),
    /** Served from the parent run's record (a fork's identical LLM request or pure/read tool call). */
    cached: z.literal(true).optional(),
  });
