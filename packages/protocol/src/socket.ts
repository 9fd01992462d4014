import { z } from "zod";
import { ErrorBody, RunStatus } from "./api.js";
import type { RunEvent } from "./run-event.js";

/** client → server: join a run's room with the last `seq` the client holds. */
export const SubscribeMessage = z.strictObject({
  runId: z.string().min(1).max(200),
  afterSeq: z.int().nonnegative().default(0),
});
export type SubscribeMessage = z.infer<typeof SubscribeMessage>;

export const UnsubscribeMessage = z.strictObject({ runId: z.string().min(1).max(200) });
export type UnsubscribeMessage = z.infer<typeof UnsubscribeMessage>;

/** server → client: the run's status whenever it changes (and once on subscribe). */
export const RunStatusMessage = z.object({
  runId: z.string(),
  status: RunStatus,
  lastSeq: z.int().nonnegative(),
});
export type RunStatusMessage = z.infer<typeof RunStatusMessage>;

/** The acknowledgement of `subscribe`: ok with the run's status, or an error body. */
export const SubscribeAck = z.union([
  z.object({ ok: z.literal(true), status: RunStatus, lastSeq: z.int().nonnegative() }),
  z.object({ ok: z.literal(false), error: ErrorBody }),
]);
export type SubscribeAck = z.infer<typeof SubscribeAck>;

/** Typed socket.io event maps, shared by the server and every client. */
export interface ClientToServerEvents {
  subscribe: (message: SubscribeMessage, ack?: (answer: SubscribeAck) => void) => void;
  unsubscribe: (message: UnsubscribeMessage) => void;
}

export interface ServerToClientEvents {
  event: (event: RunEvent) => void;
  run_status: (message: RunStatusMessage) => void;
}
