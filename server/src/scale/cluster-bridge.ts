import type { RunEvent, RunStatusMessage } from "@waddle/protocol";
import type { Server } from "socket.io";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { RunEventSequencer } from "./run-event-sequencer.js";

/** What instances tell each other through socket.io's Redis adapter (`serverSideEmit`). */
interface ClusterMessages {
  "waddle:event": (event: RunEvent) => void;
  "waddle:status": (message: RunStatusMessage) => void;
  "waddle:change": (runId: string) => void;
  "waddle:cancel": (runId: string) => void;
}

const isRunId = (value: unknown): value is string => typeof value === "string" && value.length > 0;
const isEvent = (value: unknown): value is RunEvent =>
  typeof value === "object" &&
  value !== null &&
  isRunId((value as RunEvent).runId) &&
  Number.isInteger((value as RunEvent).seq) &&
  typeof (value as RunEvent).type === "string";

/**
 * Joins this instance to the others (queue mode). What this instance's runs publish on `localHub` goes to
 * every other instance over socket.io's Redis adapter and, in order, to this instance's `hub` (which the
 * socket gateway, run followers and agent watchers read); what the others publish comes in the same way.
 * Every event passes the sequencer, so a message lost on the way is a gap read from the store. Cancel
 * wake-ups go to every instance.
 */
export function createClusterBridge(options: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the app's socket events are typed elsewhere
  io: Server<any, any, ClusterMessages>;
  localHub: RunEventHub;
  hub: RunEventHub;
  sequencer: RunEventSequencer;
  onCancel: (runId: string) => void;
}): { wakeCancel: (runId: string) => void; close: () => void } {
  const { io, localHub, hub, sequencer } = options;
  const stops = [
    localHub.onEvent((event) => {
      io.serverSideEmit("waddle:event", event);
      sequencer.accept(event);
    }),
    localHub.onStatus((message) => {
      io.serverSideEmit("waddle:status", message);
      sequencer.acceptStatus(message);
    }),
    localHub.onRunChange((runId) => {
      io.serverSideEmit("waddle:change", runId);
      hub.publishRunChange(runId);
    }),
  ];
  io.on("waddle:event", (event: unknown) => {
    if (isEvent(event)) sequencer.accept(event);
  });
  io.on("waddle:status", (message: unknown) => {
    const status = message as RunStatusMessage;
    if (isRunId(status?.runId) && typeof status.status === "string") sequencer.acceptStatus(status);
  });
  io.on("waddle:change", (runId: unknown) => {
    if (isRunId(runId)) hub.publishRunChange(runId);
  });
  io.on("waddle:cancel", (runId: unknown) => {
    if (isRunId(runId)) options.onCancel(runId);
  });
  return {
    wakeCancel: (runId) => {
      options.onCancel(runId);
      io.serverSideEmit("waddle:cancel", runId);
    },
    close: () => {
      for (const stop of stops) stop();
    },
  };
}
