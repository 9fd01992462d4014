import {
  applyRunSummary,
  createRunSummary,
  TERMINAL_EVENT_TYPES,
  TERMINAL_RUN_STATUSES,
  type RunEvent,
  type RunStatusMessage,
} from "@waddle/protocol";
import { io as connect } from "socket.io-client";
import type { CliIo } from "./cli-io.js";
import { decidePause } from "./decide-pause.js";
import { EventPrinter } from "./event-printer.js";
import type { ServerClient } from "./server-client.js";

export interface FollowRunOptions {
  client: ServerClient;
  runId: string;
  /** Print events after this seq (0: the whole run). */
  afterSeq: number;
  token?: string;
  decision?: "approve" | "reject";
  /** Sent again with every resume: the server keeps no toolContext values across a restart. */
  toolContext?: Record<string, unknown>;
  io: CliIo;
}

/** What to do about a run left paused on the server: the CLI command, or the REST request. */
export function describeWaitingRun(options: { runId: string; resumeToken: string; baseUrl: string }): string {
  const { runId, resumeToken, baseUrl } = options;
  return [
    `Run ${runId} stays paused on the server. Answer it with:`,
    `  waddle resume ${runId} --server ${baseUrl} --approve   (or --reject)`,
    `or resume it with POST /api/runs/${runId}/resume {"resumeToken":"${resumeToken}","decision":"approve"} ` +
      `(or "reject", or "edit" with args), or start a new run with --approve or --reject.`,
    "",
  ].join("\n");
}

/**
 * Follows a run on a server over socket.io, printing its events after `afterSeq` and resubscribing from
 * the last seq after a reconnect (so nothing is lost or printed twice); answers pauses with the flag or a
 * prompt. Resolves with the exit code: 0 finished, 1 failed or cancelled, 3 paused unanswered, 130 Ctrl-C.
 */
export async function followRun(options: FollowRunOptions): Promise<number> {
  const { io, client, runId } = options;
  const withContext = options.toolContext ? { toolContext: options.toolContext } : {};
  const printer = new EventPrinter({
    write: (text) => io.stdout.write(text),
    isTty: io.stdout.isTTY === true,
  });
  const socket = connect(client.baseUrl, {
    transports: ["websocket"],
    ...(options.token ? { auth: { token: options.token } } : {}),
  });
  let lastSeq = options.afterSeq;
  /** The run as its events so far say: its status gives the exit code. */
  let summary = createRunSummary();
  /** A terminal event arrived: the status that follows it says nothing new. */
  let ended = false;
  let stopListening: (() => void) | undefined;
  try {
    return await new Promise<number>((resolve, reject) => {
      // Ctrl-C stops following, not the run: say so, since it goes on spending on the server.
      stopListening = io.onInterrupt?.(() => {
        printer.finish();
        io.stderr.write(
          `\nStopped following run ${runId}; it keeps running on the server. Cancel it with ` +
            `POST /api/runs/${runId}/cancel on ${client.baseUrl}.\n`,
        );
        resolve(130);
      });
      const subscribe = () =>
        socket.emit(
          "subscribe",
          { runId, afterSeq: lastSeq },
          (ack: { ok: boolean; error?: { message: string } }) => {
            if (!ack.ok) reject(new Error(`subscribe failed: ${ack.error?.message}`));
          },
        );
      let lost = false;
      socket.on("connect", () => {
        if (lost) io.stderr.write(`Reconnected: following run ${runId} from event ${lastSeq + 1}.\n`);
        lost = false;
        subscribe();
      });
      // socket.io retries on its own; without a word the command would look busy while the server is gone.
      socket.on("disconnect", (reason) => {
        if (!socket.active) return;
        lost = true;
        printer.finish();
        io.stderr.write(
          `Lost the connection to ${client.baseUrl} (${reason}); reconnecting… (Ctrl-C stops following)\n`,
        );
      });
      socket.on("connect_error", (error) => {
        if (!socket.active) reject(new Error(`socket connection refused: ${error.message}`));
      });
      socket.on("run_status", (message: RunStatusMessage) => {
        // A run can end without a terminal event (cancelled before it started; a crash whose event could
        // not be stored): a terminal status with no event left to come ends the command too.
        if (message.runId !== runId || message.lastSeq > lastSeq || ended) return;
        if (!TERMINAL_RUN_STATUSES.has(message.status)) return;
        if (message.status !== "cancelled") {
          printer.finish();
          io.stderr.write(`Run ${runId} ended ${message.status} on the server without a final event.\n`);
        }
        resolve(message.status === "finished" ? 0 : 1);
      });
      socket.on("event", (event: RunEvent) => {
        if (event.runId !== runId || event.seq <= lastSeq) return;
        lastSeq = event.seq;
        summary = applyRunSummary(summary, event);
        printer.print(event);
        if (TERMINAL_EVENT_TYPES.has(event.type)) {
          ended = true;
          resolve(summary.status === "finished" ? 0 : 1);
          return;
        }
        if (event.type !== "pause") return;
        const { reason, payload, resumeToken } = event.data;
        void decidePause({ reason, payload, flag: options.decision, io })
          .then(async (decision) => {
            if (!decision) {
              printer.finish();
              io.stderr.write(describeWaitingRun({ runId, resumeToken, baseUrl: client.baseUrl }));
              resolve(3);
              return;
            }
            // The server keeps no toolContext values: after a restart it needs them again (else 409).
            await client.request("POST", `/api/runs/${runId}/resume`, {
              resumeToken,
              ...decision,
              ...withContext,
            });
          })
          .catch(reject);
      });
    });
  } finally {
    stopListening?.();
    printer.finish();
    socket.disconnect();
  }
}
