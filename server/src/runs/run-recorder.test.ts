import { AgentSpec, type RunEvent, type RunStatusMessage } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createLogger } from "../shared/logger.js";
import { MemoryStore } from "../store/memory-store.js";
import type { EventEntry } from "../store/waddle-store.js";
import { SecretRedactor } from "../secrets/secret-redactor.js";
import { RunEventHub } from "./run-event-hub.js";
import { RunRecorder } from "./run-recorder.js";

const SECRET = "sk-recorder-secret-123";

async function setUp() {
  const store = new MemoryStore();
  await store.createAgent({ spec: AgentSpec.parse({ version: 1, id: "a", name: "A" }) });
  await store.createRun({ id: "r1", agentId: "a", agentVersion: 1, query: "q", status: "queued" });
  const written: EventEntry[][] = [];
  const appendEvents = store.appendEvents.bind(store);
  store.appendEvents = (entries) => {
    written.push([...entries]);
    return appendEvents(entries);
  };
  const hub = new RunEventHub();
  const published: RunEvent[] = [];
  const statuses: RunStatusMessage[] = [];
  hub.onEvent((event) => published.push(event));
  hub.onStatus((message) => statuses.push(message));
  const recorder = new RunRecorder({
    runId: "r1",
    lastSeq: 0,
    status: "queued",
    store,
    hub,
    redactor: new SecretRedactor([SECRET]),
    logger: createLogger({ level: "silent" }),
  });
  return { store, recorder, written, published, statuses };
}

const envelope = { runId: "r1", ts: 1, step: 1 };
const chunk = (seq: number, text: string) =>
  ({
    ...envelope,
    seq,
    type: "llm_stream_chunk",
    data: { text, done: false, phase: "answer", channel: "answer", action_seq: 1 },
  }) as RunEvent;

describe("RunRecorder", () => {
  it("stores a burst in one write, with run changes only for the events that imply them", async () => {
    const { store, recorder, written, published, statuses } = await setUp();
    recorder.sink({ ...envelope, seq: 1, type: "run_started", data: { query: "q" } } as unknown as RunEvent);
    recorder.sink(chunk(2, "Hello "));
    recorder.sink(chunk(3, `the key is ${SECRET}`));
    recorder.sink({
      ...envelope,
      seq: 4,
      type: "llm_call",
      data: {
        purpose: "plan",
        provider: "openai",
        model: "m",
        offline: false,
        promptTokens: 10,
        completionTokens: 5,
        reasoningTokens: 0,
        costUsd: 0.5,
        latencyMs: 1,
      },
    });
    await recorder.flush();
    expect(written).toHaveLength(1);
    expect(written[0]!.map((entry) => entry.options?.run)).toEqual([
      { status: "running" },
      undefined,
      undefined,
      { usage: { promptTokens: 10, completionTokens: 5, reasoningTokens: 0, costUsd: 0.5, llmCalls: 1 } },
    ]);
    expect(published.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(JSON.stringify(published)).not.toContain(SECRET);
    expect(statuses).toEqual([{ runId: "r1", status: "running", lastSeq: 4 }]);
    expect(await store.getRun("r1")).toMatchObject({ status: "running", lastSeq: 4 });
  });

  it("stamps a terminal event, seals the run and drops what comes after it", async () => {
    const { store, recorder, published } = await setUp();
    recorder.sink(chunk(1, "Hi"));
    await recorder.append({ type: "run_failed", data: { error: { code: "boom", message: "It broke." } } });
    recorder.sink(chunk(3, "late"));
    await recorder.flush();
    expect(published.map((event) => event.type)).toEqual(["llm_stream_chunk", "run_failed"]);
    expect(recorder.isSealed).toBe(true);
    const run = await store.getRun("r1");
    expect(run).toMatchObject({ status: "failed", lastSeq: 2, error: { code: "boom" } });
    expect(Date.parse(run!.finishedAt!)).not.toBeNaN();
  });

  it("gives a server event on a stored run the step its last event had, not 0", async () => {
    const { store, recorder } = await setUp();
    recorder.sink({ ...chunk(1, "Hi"), step: 4 });
    await recorder.flush();
    // A new recorder for the same run, as cancel of a paused run or recovery at start makes.
    const later = new RunRecorder({
      runId: "r1",
      lastSeq: 1,
      status: "paused",
      store,
      hub: new RunEventHub(),
      redactor: new SecretRedactor([]),
      logger: createLogger({ level: "silent" }),
    });
    await later.append({ type: "run_interrupted", data: { message: "stopped" } });
    expect((await store.listEvents("r1")).map((event) => [event.seq, event.step])).toEqual([
      [1, 4],
      [2, 4],
    ]);
  });

  it("redacts a secret that a stream splits across chunks, holding back only what could start one", async () => {
    const { recorder, published } = await setUp();
    const pieces = ["Your key is sk-rec", "order-sec", "ret-123, and s", "o on", "."];
    pieces.forEach((text, index) =>
      recorder.sink({
        ...chunk(index + 1, text),
        data: { text, done: index === pieces.length - 1, phase: "answer", channel: "answer", action_seq: 1 },
      } as RunEvent),
    );
    await recorder.flush();
    const texts = published.map((event) => (event.data as { text: string }).text);
    expect(texts.join("")).toBe("Your key is [redacted], and so on.");
    expect(texts).toEqual(["Your key is ", "", "[redacted], and ", "so on", "."]);
    expect(JSON.stringify(published)).not.toMatch(/sk-rec|order-sec|ret-123/);
  });

  it("keeps background tasks up to date from task events", async () => {
    const { store, recorder } = await setUp();
    recorder.sink({
      ...envelope,
      seq: 1,
      type: "task_spawned",
      data: { taskId: "t1", name: "research", mode: "subagent", mergeStrategy: "APPEND", groupId: "g" },
    } as unknown as RunEvent);
    recorder.sink({ ...envelope, seq: 2, type: "task_update", data: { taskId: "t1", status: "completed" } });
    await recorder.flush();
    expect(await store.listTasks("r1")).toEqual([
      expect.objectContaining({
        taskId: "t1",
        name: "research",
        mode: "subagent",
        groupId: "g",
        status: "completed",
      }),
    ]);
  });

  it("redacts secrets in an error it writes to the run's row", async () => {
    const { store, recorder } = await setUp();
    await recorder.patch({ status: "paused", error: { code: "invalid_resume", message: `bad ${SECRET}` } });
    const run = await store.getRun("r1");
    expect(run?.error).toEqual({ code: "invalid_resume", message: "bad [redacted]" });
  });

  it(
    "writes a batch again when the store was busy, so no event is lost and the run still ends",
    { timeout: 10_000 },
    async () => {
      const { store, recorder, published } = await setUp();
      const appendEvents = store.appendEvents.bind(store);
      let refusals = 2;
      store.appendEvents = (entries, batch) => {
        if (refusals > 0) {
          refusals -= 1;
          return Promise.reject(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }));
        }
        return appendEvents(entries, batch);
      };
      recorder.sink(chunk(1, "Hi"));
      await recorder.append({ type: "run_failed", data: { error: { code: "boom", message: "It broke." } } });
      expect(refusals).toBe(0);
      expect(published.map((event) => event.seq)).toEqual([1, 2]);
      expect(await store.listEvents("r1")).toHaveLength(2);
      expect(await store.getRun("r1")).toMatchObject({ status: "failed", lastSeq: 2 });
    },
  );

  it("does not write again after an error that is not a busy store", async () => {
    const { store, recorder, published } = await setUp();
    let calls = 0;
    store.appendEvents = () => {
      calls += 1;
      return Promise.reject(new Error("disk I/O error"));
    };
    recorder.sink(chunk(1, "Hi"));
    await recorder.flush();
    expect(calls).toBe(1);
    expect(published).toEqual([]);
  });
});
