// Child process of the live-events benchmark: N socket.io clients in their own event loop, as browsers
// would be. Usage (forked with IPC): socket-clients.ts <server url> <clients>
import type { RunEvent, ServerToClientEvents, ClientToServerEvents, SubscribeAck } from "@waddle/protocol";
import { io, type Socket } from "socket.io-client";
import { ToClients, type ClientRecord, type FromClients } from "./client-messages.js";
import { getSeqAudit } from "./seq-audit.js";
import { preciseNow } from "./precise-now.js";

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

interface Watch {
  runId: string;
  seqs: number[];
  delays: number[];
  firstChunkAt: number;
  lastChunkAt: number;
  firstChunkTs: number;
  lastChunkTs: number;
  done: boolean;
}

const [url, countArg] = process.argv.slice(2);
const count = Number(countArg);
const send = (message: FromClients) => process.send?.(message);
if (url === undefined || !Number.isInteger(count) || count < 1) {
  send({ type: "error", message: "socket-clients.ts needs <url> <clients>" });
  process.exit(2);
}

const sockets: ClientSocket[] = [];
const watches: Watch[] = [];

function onEvent(index: number, event: RunEvent): void {
  const receivedAt = preciseNow();
  const watch = watches[index];
  if (watch === undefined || event.runId !== watch.runId) return;
  watch.seqs.push(event.seq);
  if (event.type === "llm_stream_chunk" && !event.data.done) {
    if (watch.delays.length === 0) {
      watch.firstChunkAt = receivedAt;
      watch.firstChunkTs = event.ts;
    }
    watch.lastChunkAt = receivedAt;
    watch.lastChunkTs = event.ts;
    watch.delays.push(receivedAt - event.ts);
  }
  if (event.type === "run_finished" || event.type === "run_failed") {
    watch.done = true;
    if (watches.every((candidate) => candidate.done)) report();
  }
}

function report(): void {
  const records: ClientRecord[] = watches.map((watch) => ({
    received: watch.seqs.length,
    ...getSeqAudit(watch.seqs),
    delays: watch.delays,
    firstChunkAt: watch.firstChunkAt,
    lastChunkAt: watch.lastChunkAt,
    firstChunkTs: watch.firstChunkTs,
    lastChunkTs: watch.lastChunkTs,
  }));
  send({ type: "report", records });
}

async function watch(runId: string): Promise<void> {
  watches.length = 0;
  for (let index = 0; index < sockets.length; index += 1) {
    watches.push({
      runId,
      seqs: [],
      delays: [],
      firstChunkAt: 0,
      lastChunkAt: 0,
      firstChunkTs: 0,
      lastChunkTs: 0,
      done: false,
    });
  }
  const acks = await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<SubscribeAck>((resolve) => socket.emit("subscribe", { runId, afterSeq: 0 }, resolve)),
    ),
  );
  const refused = acks.find((ack) => !ack.ok);
  if (refused !== undefined && !refused.ok) send({ type: "error", message: refused.error.message });
  else send({ type: "subscribed" });
}

process.on("message", (raw) => {
  const message = ToClients.parse(raw);
  if (message.type === "ping") send({ type: "pong", t0: message.t0, tc: preciseNow() });
  else void watch(message.runId);
});
process.on("disconnect", () => {
  for (const socket of sockets) socket.close();
  process.exit(0);
});

for (let index = 0; index < count; index += 1) {
  const socket: ClientSocket = io(url, { transports: ["websocket"], forceNew: true, reconnection: false });
  socket.on("event", (event) => onEvent(index, event));
  sockets.push(socket);
}
await Promise.all(
  sockets.map(
    (socket) =>
      new Promise<void>((resolve, reject) => {
        socket.once("connect", () => resolve());
        socket.once("connect_error", reject);
      }),
  ),
);
send({ type: "ready" });
