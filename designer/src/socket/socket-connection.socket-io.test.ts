import type { RunEvent } from "@waddle/protocol";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { afterEach, describe, expect, it } from "vitest";
import { createSocketRunTransport } from "../runs/transport/socket-run-transport.js";
import { makeEvents } from "../testing/run-transport-conformance.js";
import { createSocketConnection, type SocketConnection } from "./socket-connection.js";

/** A promise and the function that settles it, to wait for what a callback hears. */
function createSignal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/**
 * A real socket.io server in this process, speaking the run part of the contract: a token checked in the
 * handshake (as server/src/access/socket-access.ts refuses one), `subscribe` replaying the log after
 * `afterSeq` then acking with the last seq. Every subscribe is recorded; `dropAll` cuts the transports.
 */
async function startServer(token: string) {
  const http = createServer();
  const io = new Server(http);
  const log: RunEvent[] = [];
  const subscribes: unknown[] = [];
  let onSubscribe: ((payload: unknown) => void) | null = null;
  io.use((socket, next) => {
    const presented = (socket.handshake.auth as { token?: unknown }).token;
    next(
      presented === token
        ? undefined
        : new Error("unauthorized: pass the server's WADDLE_TOKEN as auth.token"),
    );
  });
  io.on("connection", (socket) => {
    socket.on("subscribe", (message: { runId: string; afterSeq: number }, ack: (answer: unknown) => void) => {
      subscribes.push(message);
      for (const event of log) if (event.seq > message.afterSeq) socket.emit("event", event);
      ack({ ok: true, status: "running", lastSeq: log.at(-1)?.seq ?? 0 });
      onSubscribe?.(message);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    log,
    subscribes,
    nextSubscribe() {
      const signal = createSignal<unknown>();
      onSubscribe = signal.resolve;
      return signal.promise;
    },
    /** Closes every connection's transport: the clients see a lost connection and reconnect on their own. */
    dropAll() {
      for (const socket of io.sockets.sockets.values()) socket.conn.close();
    },
    close: () => new Promise<void>((resolve) => void io.close(() => resolve())),
  };
}

describe("createSocketConnection against a real socket.io server", () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("asks for a token when refused, subscribes, and after a lost connection subscribes again from the last seq", async () => {
    const server = await startServer("right");
    cleanups.push(server.close);
    server.log.push(...makeEvents("run-1", 3));
    let token = "wrong";
    let asked = 0;
    const connection: SocketConnection = createSocketConnection({
      url: server.url,
      getToken: () => token,
      onUnauthorized: async () => {
        asked += 1;
        token = "right";
        return true;
      },
    });
    cleanups.push(() => connection.close());
    const transport = createSocketRunTransport({
      connection,
      api: { getRunEvents: async (_runId, after = 0) => server.log.filter((event) => event.seq > after) },
    });
    const seqs: number[] = [];
    const errors: string[] = [];
    const reached = new Map<number, () => void>();
    const waitForSeq = (seq: number) => {
      const signal = createSignal();
      reached.set(seq, signal.resolve);
      return signal.promise;
    };
    const hasThree = waitForSeq(3);
    transport.subscribe("run-1", 0, {
      onEvents: (events) => {
        for (const event of events) {
          seqs.push(event.seq);
          reached.get(event.seq)?.();
        }
      },
      onStatus: () => undefined,
      onError: (error) => errors.push(error.code),
    });
    await hasThree;
    expect(asked).toBe(1);

    server.log.push(...makeEvents("run-1", 2, 4));
    const resubscribed = server.nextSubscribe();
    const hasFive = waitForSeq(5);
    server.dropAll();
    await expect(resubscribed).resolves.toEqual({ runId: "run-1", afterSeq: 3 });
    await hasFive;
    expect(seqs).toEqual([1, 2, 3, 4, 5]);
    expect(errors).toEqual([]);
    expect(server.subscribes).toEqual([
      { runId: "run-1", afterSeq: 0 },
      { runId: "run-1", afterSeq: 3 },
    ]);
  });
});
