import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunEvent, RunStatusMessage } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "../shared/logger.js";
import { SqliteStore } from "../store/sqlite-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { SecretRedactor } from "../secrets/secret-redactor.js";
import { RunRecorder } from "../runs/run-recorder.js";

let server: TestServer;
const noRuns = async () => {
  throw new Error("events here come from a RunRecorder, not a planner");
};
const delays = createRandom(7);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The SQLite store, with reads of events that answer late: half read first and answer after a pause (as
 * a database round trip does, so events published meanwhile are missing from the page), half pause first
 * (so the page also holds events that were published to the socket's buffer during the pause).
 */
function withSlowEventReads(store: WaddleStore): WaddleStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== "listEvents" || typeof value !== "function") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return async (...args: Parameters<WaddleStore["listEvents"]>) => {
        if (delays() < 0.5) {
          const page = await target.listEvents(...args);
          await pause(1 + Math.floor(delays() * 8));
          return page;
        }
        await pause(1 + Math.floor(delays() * 8));
        return target.listEvents(...args);
      };
    },
  });
}

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-gateway-"));
  server = await startTestServer({
    createPlanner: noRuns,
    store: withSlowEventReads(new SqliteStore(path.join(dataDir, "w.db"))),
  });
});
afterAll(() => server.stop());

/** Seeded, so that a failure can be replayed. */
function createRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function createRecordedRun(runId: string) {
  await server.store.createRun({
    id: runId,
    agentId: "support-triage",
    agentVersion: 1,
    query: "q",
    status: "running",
  });
  return new RunRecorder({
    runId,
    lastSeq: 0,
    status: "running",
    store: server.store,
    hub: server.hub,
    redactor: new SecretRedactor(["sk-never-show-this"]),
    logger: createLogger({ level: "silent" }),
  });
}

const stepEvent = (runId: string, seq: number): RunEvent => ({
  runId,
  seq,
  ts: Date.now(),
  step: seq,
  type: "step_start",
  data: { source: "llm" },
});

/**
 * A client that subscribes from `afterSeq`, collecting events until it has seen `lastSeq`: one `event`
 * message each, or with `batch` the `run_events` batches (kept in `batches`, one array per message).
 */
function collect(options: { runId: string; afterSeq: number; lastSeq: number; batch?: boolean }): {
  socket: Socket;
  done: Promise<RunEvent[]>;
  batches: RunEvent[][];
} {
  const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
  const events: RunEvent[] = [];
  const batches: RunEvent[][] = [];
  const done = new Promise<RunEvent[]>((resolve, reject) => {
    const take = (event: RunEvent) => {
      events.push(event);
      if (event.seq === options.lastSeq) resolve(events);
    };
    socket.on("event", (event: RunEvent) => {
      if (options.batch) reject(new Error(`a batch subscriber got event ${event.seq} alone`));
      take(event);
    });
    socket.on("run_events", (batch: RunEvent[]) => {
      if (!options.batch) reject(new Error("a subscriber that did not ask for batches got run_events"));
      batches.push(batch);
      for (const event of batch) take(event);
    });
    socket.on("connect", () => {
      socket.emit(
        "subscribe",
        { runId: options.runId, afterSeq: options.afterSeq, ...(options.batch ? { batch: true } : {}) },
        (ack: { ok: boolean }) => {
          if (!ack.ok) reject(new Error(JSON.stringify(ack)));
          if (options.afterSeq >= options.lastSeq) resolve(events);
        },
      );
    });
  });
  return { socket, done, batches };
}

describe("socket subscribe and replay", () => {
  it("gives every subscriber exactly the stored stream after its afterSeq while the run emits", async () => {
    const runId = "run_replayrace";
    const recorder = await createRecordedRun(runId);
    const total = 400;
    const random = createRandom(42);
    const clients: { afterSeq: number; done: Promise<RunEvent[]>; socket: Socket }[] = [];
    for (let seq = 1; seq <= total; seq += 1) {
      recorder.sink(stepEvent(runId, seq));
      if (seq % 20 === 0) {
        await recorder.flush();
        const afterSeq = Math.floor(random() * seq);
        clients.push({ afterSeq, ...collect({ runId, afterSeq, lastSeq: total }) });
      }
      if (seq % 4 === 0) await pause(1);
    }
    await recorder.flush();
    const stored = await server.store.listEvents(runId);
    expect(stored.map((event) => event.seq)).toEqual(Array.from({ length: total }, (_, index) => index + 1));
    for (const client of clients) {
      const received = await client.done;
      client.socket.disconnect();
      expect(received).toEqual(stored.slice(client.afterSeq));
    }
    expect(clients.length).toBe(total / 20);
  });

  it("loses and duplicates nothing across a disconnect and a resubscribe from the last seq", async () => {
    const runId = "run_reconnect1";
    const recorder = await createRecordedRun(runId);
    const total = 300;
    const received: RunEvent[] = [];
    const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
    const finished = new Promise<void>((resolve) => {
      socket.on("event", (event: RunEvent) => {
        received.push(event);
        if (event.seq === total) resolve();
      });
    });
    const subscribe = () =>
      new Promise((resolve) =>
        socket.emit("subscribe", { runId, afterSeq: received.at(-1)?.seq ?? 0 }, resolve),
      );
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    await subscribe();
    for (let seq = 1; seq <= total; seq += 1) {
      recorder.sink(stepEvent(runId, seq));
      if (seq % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (seq === 100 || seq === 220) {
        socket.disconnect();
        for (let more = 0; more < 15; more += 1) recorder.sink(stepEvent(runId, (seq += 1)));
        socket.connect();
        await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
        await subscribe();
      }
    }
    await finished;
    socket.disconnect();
    expect(received.map((event) => event.seq)).toEqual(
      Array.from({ length: total }, (_, index) => index + 1),
    );
  });

  it("acks with the run's status, replays a finished run, and redacts secrets before storing", async () => {
    const runId = "run_finished01";
    const recorder = await createRecordedRun(runId);
    recorder.sink({
      ...stepEvent(runId, 1),
      type: "reasoning",
      data: { phase: "plan", summary: "use sk-never-show-this" },
    } as RunEvent);
    await recorder.append({ type: "run_failed", data: { error: { code: "boom", message: "failed" } } });
    const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
    const events: RunEvent[] = [];
    const received: string[] = [];
    const statuses: RunStatusMessage[] = [];
    socket.on("event", (event: RunEvent) => {
      events.push(event);
      received.push(event.type);
    });
    socket.on("run_status", (message: RunStatusMessage) => {
      statuses.push(message);
      received.push("run_status");
    });
    const ack = await new Promise((resolve) => socket.emit("subscribe", { runId, afterSeq: 0 }, resolve));
    socket.disconnect();
    expect(ack).toEqual({ ok: true, status: "failed", lastSeq: 2 });
    // run_status once on subscribe, after the replay (socket.ts): a client that missed the change still learns it.
    expect(received).toEqual(["reasoning", "run_failed", "run_status"]);
    expect(statuses).toEqual([{ runId, status: "failed", lastSeq: 2 }]);
    expect(events.map((event) => event.type)).toEqual(["reasoning", "run_failed"]);
    expect(JSON.stringify(events)).not.toContain("sk-never-show-this");
    expect((await server.store.getRun(runId))?.error).toEqual({ code: "boom", message: "failed" });
  });

  it("acks the run's real last seq to a client that asks from beyond it (e.g. from a reset database)", async () => {
    const runId = "run_beyond01";
    const recorder = await createRecordedRun(runId);
    recorder.sink(stepEvent(runId, 1));
    await recorder.append({ type: "run_failed", data: { error: { code: "boom", message: "failed" } } });
    const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
    const ack = await new Promise((resolve) => socket.emit("subscribe", { runId, afterSeq: 40 }, resolve));
    socket.disconnect();
    expect(ack).toEqual({ ok: true, status: "failed", lastSeq: 2 });
  });
});

describe("run_events batches (subscribe with batch: true)", () => {
  it("sends each tick's events as one message, in seq order, the stored stream exactly, beside old subscribers", async () => {
    const runId = "run_batchrace";
    const recorder = await createRecordedRun(runId);
    const total = 400;
    const random = createRandom(11);
    const clients: (ReturnType<typeof collect> & { afterSeq: number; batch: boolean })[] = [];
    for (let seq = 1; seq <= total; seq += 1) {
      recorder.sink(stepEvent(runId, seq));
      if (seq % 20 === 0) {
        await recorder.flush();
        const afterSeq = Math.floor(random() * seq);
        const batch = clients.length % 3 !== 2;
        clients.push({ afterSeq, batch, ...collect({ runId, afterSeq, lastSeq: total, batch }) });
      }
      if (seq % 4 === 0) await pause(1);
    }
    await recorder.flush();
    const stored = await server.store.listEvents(runId);
    for (const client of clients) {
      const received = await client.done;
      client.socket.disconnect();
      // Exactly the stored stream after afterSeq: in order, none missing, none twice.
      expect(received).toEqual(stored.slice(client.afterSeq));
      if (!client.batch) continue;
      expect(client.batches.every((batch) => batch.length > 0)).toBe(true);
      // Fewer messages than events: the replay came a page at a time, live events a tick at a time.
      expect(client.batches.length).toBeLessThan(received.length);
    }
  });

  it("puts the events recorded in one tick into one message, before the status that follows them", async () => {
    const runId = "run_batchtick";
    // The run must exist to subscribe; its events here come straight from the hub, all in one tick.
    await createRecordedRun(runId);
    const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
    const received: (RunEvent[] | string)[] = [];
    socket.on("run_events", (batch: RunEvent[]) => received.push(batch));
    socket.on("run_status", (message: RunStatusMessage) => received.push(message.status));
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    await new Promise((resolve) => socket.emit("subscribe", { runId, afterSeq: 0, batch: true }, resolve));
    for (let seq = 1; seq <= 50; seq += 1) server.hub.publishEvent(stepEvent(runId, seq));
    server.hub.publishEvent(stepEvent(runId, 20)); // a hub repeating an event: never sent twice
    server.hub.publishStatus({ runId, status: "finished", lastSeq: 50 });
    for (let seq = 51; seq <= 60; seq += 1) server.hub.publishEvent(stepEvent(runId, seq));
    // until the last event has arrived (not a fixed pause, which a loaded machine can outlast)
    await vi.waitFor(
      () => {
        const last = received.at(-1);
        expect(typeof last === "object" ? last.at(-1)?.seq : last).toBe(60);
      },
      { timeout: 15_000 },
    );
    socket.disconnect();
    const seqs = (batch: RunEvent[] | string | undefined) =>
      typeof batch === "object" ? batch.map((event) => event.seq) : batch;
    expect(received.map(seqs)).toEqual([
      "running",
      Array.from({ length: 50 }, (_, index) => index + 1),
      "finished",
      Array.from({ length: 10 }, (_, index) => index + 51),
    ]);
  });

  it("loses and duplicates nothing across a disconnect and a resubscribe from the last seq", async () => {
    const runId = "run_batchreconn";
    const recorder = await createRecordedRun(runId);
    const total = 300;
    const received: RunEvent[] = [];
    const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
    const finished = new Promise<void>((resolve) => {
      socket.on("run_events", (batch: RunEvent[]) => {
        received.push(...batch);
        if (batch.at(-1)?.seq === total) resolve();
      });
    });
    const subscribe = () =>
      new Promise((resolve) =>
        socket.emit("subscribe", { runId, afterSeq: received.at(-1)?.seq ?? 0, batch: true }, resolve),
      );
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    await subscribe();
    for (let seq = 1; seq <= total; seq += 1) {
      recorder.sink(stepEvent(runId, seq));
      if (seq % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (seq === 100 || seq === 220) {
        socket.disconnect();
        for (let more = 0; more < 15; more += 1) recorder.sink(stepEvent(runId, (seq += 1)));
        socket.connect();
        await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
        await subscribe();
      }
      // A resubscribe while the socket follows, from what it has: the replay resends only what came after.
      // (A batch still in flight when the client resubscribes may come twice: the designer drops repeats.)
      if (seq === 150) {
        while (received.at(-1)?.seq !== 150) await new Promise((resolve) => setTimeout(resolve, 5));
        await subscribe();
      }
    }
    await finished;
    socket.disconnect();
    expect(received.map((event) => event.seq)).toEqual(
      Array.from({ length: total }, (_, index) => index + 1),
    );
  });
});
