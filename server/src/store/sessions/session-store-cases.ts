import assert from "node:assert/strict";
import type { NewSessionEvent, SessionRecord } from "@waddle/protocol";
import { withStore, type StoreConformanceCase } from "../store-claim-cases.js";
import { isStoreError } from "../waddle-store.js";

const started = (runId: string, turn: number, query: string, ts: number): NewSessionEvent => ({
  type: "turn_started",
  ts,
  data: { runId, turn, query },
});

/** Starts a turn unless one is in progress: the conditional write the server makes for `POST /api/runs`. */
const startTurn = (runId: string, query: string, ts: number) => (record: SessionRecord) =>
  record.status === "running" || record.status === "closed"
    ? { events: [], result: false }
    : { events: [started(runId, record.turns.length + 1, query, ts)], result: true };

/** Sessions: records folded from their logs, conditional writes, order by activity. */
export const sessionStoreCases: readonly StoreConformanceCase[] = [
  {
    name: "sessions: created idle, updated through their log, read back as the fold of it",
    run: (make) =>
      withStore(make, async (store) => {
        const created = await store.sessions.create({
          id: "ses_a",
          agentId: "helper",
          agentVersion: 3,
          now: "2026-01-01T00:00:00.000Z",
        });
        assert.equal(created.status, "idle");
        assert.equal(created.title, "");
        await assert.rejects(
          store.sessions.create({ id: "ses_a", agentId: "helper", agentVersion: 1 }),
          (error: unknown) => isStoreError(error) && error.code === "conflict",
        );
        const first = await store.sessions.update("ses_a", startTurn("run_1", "What is due today?", 5_000));
        assert.equal(first?.result, true);
        assert.deepEqual(
          first?.events.map((event) => [event.seq, event.type, event.sessionId]),
          [[1, "turn_started", "ses_a"]],
        );
        const refused = await store.sessions.update("ses_a", startTurn("run_2", "And tomorrow?", 6_000));
        assert.equal(refused?.result, false);
        assert.deepEqual(refused?.events, []);
        await store.sessions.update("ses_a", () => ({
          events: [
            {
              type: "turn_ended",
              ts: 7_000,
              data: { runId: "run_1", turn: 1, status: "finished", answer: "Two invoices." },
            },
          ],
          result: undefined,
        }));
        const read = await store.sessions.get("ses_a");
        assert.equal(read?.title, "What is due today?");
        assert.equal(read?.status, "idle");
        assert.equal(read?.lastSeq, 2);
        assert.deepEqual(read?.turns, [
          {
            runId: "run_1",
            turn: 1,
            query: "What is due today?",
            status: "finished",
            answer: "Two invoices.",
          },
        ]);
        assert.equal(read?.updatedAt, new Date(7_000).toISOString());
        assert.deepEqual(
          (await store.sessions.listEvents("ses_a")).map((event) => event.type),
          ["turn_started", "turn_ended"],
        );
        assert.deepEqual(
          (await store.sessions.listEvents("ses_a", { afterSeq: 1 })).map((event) => event.seq),
          [2],
        );
        assert.deepEqual(
          (await store.sessions.listEvents("ses_a", { limit: 1 })).map((event) => event.seq),
          [1],
        );
        assert.equal(await store.sessions.update("ses_unknown", startTurn("run_x", "q", 1)), undefined);
        assert.equal(await store.sessions.get("ses_unknown"), undefined);
      }),
  },
  {
    name: "sessions: one of concurrent conditional writes wins",
    run: (make) =>
      withStore(make, async (store) => {
        await store.sessions.create({ id: "ses_race", agentId: "helper", agentVersion: 1 });
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, index) =>
            store.sessions.update("ses_race", startTurn(`run_${index}`, `query ${index}`, 1_000 + index)),
          ),
        );
        assert.equal(results.filter((result) => result?.result === true).length, 1);
        const record = await store.sessions.get("ses_race");
        assert.equal(record?.turns.length, 1);
        assert.deepEqual(
          (await store.sessions.listEvents("ses_race")).map((event) => event.seq),
          [1],
        );
      }),
  },
  {
    name: "sessions: listed by latest activity, per agent, with a summary",
    run: (make) =>
      withStore(make, async (store) => {
        for (const [id, agentId, now] of [
          ["ses_1", "helper", "2026-01-01T00:00:01.000Z"],
          ["ses_2", "helper", "2026-01-01T00:00:02.000Z"],
          ["ses_3", "other", "2026-01-01T00:00:03.000Z"],
        ] as const) {
          await store.sessions.create({ id, agentId, agentVersion: 1, now, title: `Chat ${id}` });
        }
        await store.sessions.update("ses_1", startTurn("run_1", "Latest question", Date.parse("2026-01-02")));
        const all = await store.sessions.list();
        assert.deepEqual(
          all.map((session) => session.id),
          ["ses_1", "ses_3", "ses_2"],
        );
        assert.deepEqual(all[0], {
          id: "ses_1",
          agentId: "helper",
          agentVersion: 1,
          title: "Chat ses_1",
          status: "running",
          usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
          createdAt: "2026-01-01T00:00:01.000Z",
          updatedAt: new Date(Date.parse("2026-01-02")).toISOString(),
          turnCount: 1,
          lastQuery: "Latest question",
        });
        assert.deepEqual(
          (await store.sessions.list({ agentId: "helper", limit: 1 })).map((session) => session.id),
          ["ses_1"],
        );
      }),
  },
  {
    name: "runs: a session's turn and task keep where they belong",
    run: (make) =>
      withStore(make, async (store) => {
        const base = { agentId: "helper", agentVersion: 1, query: "q", status: "queued" as const };
        await store.createRun({
          ...base,
          id: "run_turn",
          origin: { sessionId: "ses_a", turn: 2, kind: "run" },
        });
        await store.createRun({
          ...base,
          id: "run_task",
          origin: { sessionId: "ses_a", kind: "task", parentRunId: "run_turn" },
        });
        await store.createRun({ ...base, id: "run_alone" });
        assert.deepEqual(
          [
            await store.getRun("run_turn"),
            await store.getRun("run_task"),
            await store.getRun("run_alone"),
          ].map((run) => [run?.sessionId, run?.turn, run?.kind, run?.parentRunId]),
          [
            ["ses_a", 2, "run", undefined],
            ["ses_a", undefined, "task", "run_turn"],
            [undefined, undefined, undefined, undefined],
          ],
        );
      }),
  },
];
