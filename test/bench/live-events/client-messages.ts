import { z } from "zod";

/** What the benchmark (parent) tells the socket clients' process. */
export const ToClients = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping"), t0: z.number() }),
  z.object({ type: z.literal("watch"), runId: z.string() }),
]);
export type ToClients = z.infer<typeof ToClients>;

/** One client's record of one run. */
export const ClientRecord = z.object({
  /** Events received for the run (replayed and live). */
  received: z.int(),
  /** Seqs received more than once, and seqs missing below the highest one received. */
  duplicates: z.int(),
  missing: z.int(),
  maxSeq: z.int(),
  /** receipt time − event ts (ms, in the clients' clock) of each streamed chunk, in arrival order. */
  delays: z.array(z.number()),
  /** Receipt times of the first and last streamed chunk (clients' clock). */
  firstChunkAt: z.number(),
  lastChunkAt: z.number(),
  /** Their `ts`: when the planner emitted them (server's clock). */
  firstChunkTs: z.number(),
  lastChunkTs: z.number(),
});
export type ClientRecord = z.infer<typeof ClientRecord>;

/** What the socket clients' process answers. */
export const FromClients = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("pong"), t0: z.number(), tc: z.number() }),
  z.object({ type: z.literal("subscribed") }),
  z.object({ type: z.literal("report"), records: z.array(ClientRecord) }),
  z.object({ type: z.literal("error"), message: z.string() }),
]);
export type FromClients = z.infer<typeof FromClients>;
