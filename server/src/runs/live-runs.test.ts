import { AgentSpec, type RunEvent } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForEvent, waitForRun } from "../testing/wait-for-run.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const steps = Array.from({ length: 8 }, (_, index) => `step_${index + 1}`);
  const spec = AgentSpec.parse({
    version: 1,
    id: "long-chain",
    name: "Long chain",
    tools: steps.map((name) => ({ name, impl: { kind: "mock", latencyMs: 40, output: { done: name } } })),
    hints: { ordering_hints: steps },
  });
  expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
});
afterAll(() => server.stop());

function createRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const startRun = async () =>
  (
    await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "long-chain", query: "walk the chain" },
    })
  ).body.runId as string;

/** Subscribes from `afterSeq` and collects events until the run's terminal event. */
function follow(runId: string, afterSeq: number): { socket: Socket; done: Promise<RunEvent[]> } {
  const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
  const events: RunEvent[] = [];
  const done = new Promise<RunEvent[]>((resolve) => {
    socket.on("event", (event: RunEvent) => {
      events.push(event);
      if (event.type === "run_finished" || event.type === "run_failed") resolve(events);
    });
    socket.on("connect", () => socket.emit("subscribe", { runId, afterSeq }));
  });
  return { socket, done };
}

describe("live events of real runs", () => {
  it("gives subscribers joining mid-run with random afterSeq exactly the stored stream", async () => {
    const random = createRandom(2026);
    const runId = await startRun();
    const followers: { afterSeq: number; socket: Socket; done: Promise<RunEvent[]> }[] = [];
    for (let index = 0; index < 12; index += 1) {
      await waitForEvent(server, runId, (event) => event.type === "tool_end" && event.seq > index * 3);
      const lastSeq = (await server.store.getRun(runId))?.lastSeq ?? 0;
      const afterSeq = Math.floor(random() * (lastSeq + 1));
      followers.push({ afterSeq, ...follow(runId, afterSeq) });
    }
    const run = await waitForRun(server, runId);
    expect(run.status).toBe("finished");
    const stored = await server.store.listEvents(runId);
    for (const follower of followers) {
      const received = await follower.done;
      follower.socket.disconnect();
      expect(received.map((event) => event.seq)).toEqual(
        stored.slice(follower.afterSeq).map((event) => event.seq),
      );
      expect(received).toEqual(stored.slice(follower.afterSeq));
    }
  });

  it("delivers every event exactly once across disconnects and reconnects mid-run", async () => {
    const runId = await startRun();
    const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
    const received: RunEvent[] = [];
    let drops = 0;
    const finished = new Promise<void>((resolve) => {
      socket.on("event", (event: RunEvent) => {
        received.push(event);
        if (event.type === "run_finished") resolve();
        if (event.type === "tool_end" && drops < 3) {
          drops += 1;
          socket.disconnect();
          // Stay away while the run goes on, then come back from the last seq held.
          setTimeout(() => socket.connect(), 60);
        }
      });
      socket.on("connect", () => socket.emit("subscribe", { runId, afterSeq: received.at(-1)?.seq ?? 0 }));
    });
    await finished;
    socket.disconnect();
    const stored = await server.store.listEvents(runId);
    expect(drops).toBe(3);
    expect(received.map((event) => event.seq)).toEqual(stored.map((event) => event.seq));
    expect(new Set(received.map((event) => event.seq)).size).toBe(received.length);
  });

  it("sends run_status changes to subscribers", async () => {
    const runId = await startRun();
    const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
    const statuses: string[] = [];
    const ended = new Promise<void>((resolve) =>
      socket.on("run_status", (message: { runId: string; status: string }) => {
        statuses.push(message.status);
        if (message.status === "finished") resolve();
      }),
    );
    const ack = await new Promise<{ ok: boolean; status?: string }>((resolve) =>
      socket.emit("subscribe", { runId, afterSeq: 0 }, resolve),
    );
    expect(ack.ok).toBe(true);
    await ended;
    socket.disconnect();
    expect(statuses.at(-1)).toBe("finished");
  });
});
