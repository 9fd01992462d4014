import {
  TERMINAL_EVENT_TYPES,
  TERMINAL_RUN_STATUSES,
  type AgentRecord,
  type AgentSpec,
  type RunEvent,
  type RunStatusMessage,
} from "@waddle/protocol";
import { io as connect } from "socket.io-client";
import type { CliIo } from "./cli-io.js";
import { decidePause } from "./decide-pause.js";
import { EventPrinter } from "./event-printer.js";
import { ServerClient, ServerRequestError } from "./server-client.js";

export interface RunRemoteOptions {
  /** An agent id on the server, or a spec (from a file) to save there first. */
  agent: string | AgentSpec;
  query: string;
  server: string;
  token?: string;
  decision?: "approve" | "reject";
  /** Secrets and values for the agent's tools; sent with the start and again with every resume. */
  toolContext?: Record<string, unknown>;
  io: CliIo;
}

/** Saves a spec from a file on the server: created, or a new version when it differs. */
async function saveSpec(client: ServerClient, spec: AgentSpec, io: CliIo): Promise<string> {
  try {
    const current = (await client.request("GET", `/api/agents/${spec.id}`)).json as AgentRecord;
    if (JSON.stringify(current.spec) === JSON.stringify(spec)) return spec.id;
    const saved = (
      await client.request("PUT", `/api/agents/${spec.id}`, {
        spec,
        baseVersion: current.version,
        message: "waddle run",
      })
    ).json as { version: number };
    io.stderr.write(`saved ${spec.id} as version ${saved.version}\n`);
  } catch (error) {
    if (!(error instanceof ServerRequestError) || error.status !== 404) throw error;
    await client.request("POST", "/api/agents", spec);
    io.stderr.write(`created agent ${spec.id}\n`);
  }
  return spec.id;
}

/**
 * Starts a run on a server over REST and follows it over socket.io, resubscribing from the last seq after
 * a reconnect (so nothing is lost or printed twice); answers pauses with the flag or a prompt.
 */
export async function runRemote(options: RunRemoteOptions): Promise<number> {
  const { io } = options;
  const client = new ServerClient(options.server, options.token);
  const agentId =
    typeof options.agent === "string" ? options.agent : await saveSpec(client, options.agent, io);
  const withContext = options.toolContext ? { toolContext: options.toolContext } : {};
  const { runId } = (
    await client.request("POST", "/api/runs", { agentId, query: options.query, ...withContext })
  ).json as { runId: string };
  io.stderr.write(`run ${runId} on ${client.baseUrl}\n`);
  const printer = new EventPrinter({
    write: (text) => io.stdout.write(text),
    isTty: io.stdout.isTTY === true,
  });
  const socket = connect(client.baseUrl, {
    transports: ["websocket"],
    ...(options.token ? { auth: { token: options.token } } : {}),
  });
  let lastSeq = 0;
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
        printer.print(event);
        if (TERMINAL_EVENT_TYPES.has(event.type)) {
          ended = true;
          resolve(event.type === "run_finished" && event.data.reason !== "cancelled" ? 0 : 1);
          return;
        }
        if (event.type !== "pause") return;
        const { reason, payload, resumeToken } = event.data;
        void decidePause({ reason, payload, flag: options.decision, io })
          .then(async (decision) => {
            if (!decision) {
              printer.finish();
              io.stderr.write(
                `Run ${runId} stays paused on the server. Resume it with POST /api/runs/${runId}/resume ` +
                  `{"resumeToken":"${resumeToken}","decision":"approve"} (or "reject", or "edit" with args), ` +
                  `or start a new run with --approve or --reject.\n`,
              );
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
