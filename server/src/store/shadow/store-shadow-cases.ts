import assert from "node:assert/strict";
import type { ShadowCase, ShadowReport, ShadowSide } from "@waddle/protocol";
import { expectStoreError, withStore, type StoreConformanceCase } from "../store-claim-cases.js";

const usage = { promptTokens: 10, completionTokens: 5, reasoningTokens: 0, costUsd: 0.001, llmCalls: 2 };
const side = (version: number, answer: string | null, extra: Partial<ShadowSide> = {}): ShadowSide => ({
  version,
  status: "finished",
  answer,
  error: null,
  tools: [{ tool: "lookup", args: { id: "A-1", nested: { list: [1, "two", null] } } }],
  usage,
  durationMs: 12.5,
  ...extra,
});

const shadowCase: ShadowCase = {
  runId: "run_1",
  sessionId: "ses_1",
  turn: 2,
  query: "Where is my refund? «ünïcode»",
  baseline: side(1, "Refunded."),
  candidate: side(2, null, {
    status: "paused",
    tools: [{ tool: "lookup", args: { id: "B-2" }, notRecorded: true }],
  }),
  sameTools: false,
  partsAt: 0,
  sameAnswer: false,
  notRecorded: 1,
};

const report = (id: string, agentId: string, extra: Partial<ShadowReport> = {}): ShadowReport => ({
  id,
  agentId,
  candidateVersion: 2,
  baseline: { channel: "production", version: 1 },
  createdAt: `2026-01-0${id.slice(-1)}T00:00:00.000Z`,
  createdBy: "ops",
  note: null,
  cases: [shadowCase],
  totals: {
    cases: 1,
    sameTools: 0,
    sameAnswer: 0,
    notRecorded: 1,
    baseline: { usage, durationMs: 12.5, failed: 0 },
    candidate: { usage, durationMs: 12.5, failed: 0 },
  },
  ...extra,
});

/** Shadow reports come back as written, and lists are per agent, newest first, without cases. */
export const storeShadowCases: readonly StoreConformanceCase[] = [
  {
    name: "shadow reports: read back whole, listed per agent newest first without their cases",
    run: (make) =>
      withStore(make, async (store) => {
        const { shadows } = store;
        assert.deepEqual(await shadows.list("triage"), []);
        assert.equal(await shadows.get("shr_none"), undefined);
        const first = report("shr_1", "triage");
        assert.deepEqual(await shadows.create(first), first);
        const empty = report("shr_2", "triage", {
          baseline: { channel: "staging", version: null },
          note: "Channel staging served no ended runs yet: nothing to replay.",
          cases: [],
        });
        await shadows.create(empty);
        await shadows.create(report("shr_3", "other"));
        await shadows.create(report("shr_4", "triage", { candidateVersion: 3 }));
        assert.deepEqual(await shadows.get("shr_1"), first);
        assert.deepEqual(await shadows.get("shr_2"), empty);
        const listed = await shadows.list("triage");
        assert.deepEqual(
          listed.map((entry) => entry.id),
          ["shr_4", "shr_2", "shr_1"],
        );
        assert.equal("cases" in listed[0]!, false);
        const { cases: _cases, ...summary } = empty;
        assert.deepEqual(listed[1], summary);
        assert.deepEqual(
          (await shadows.list("triage", { limit: 1 })).map((entry) => entry.id),
          ["shr_4"],
        );
        await expectStoreError(shadows.create(report("shr_1", "triage")), "conflict");
      }),
  },
];
