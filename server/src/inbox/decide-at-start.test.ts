import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TIMEOUT_ACTOR } from "@waddle/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../store/sqlite-store.js";
import { startTestServer } from "../testing/start-test-server.js";
import { waitForEvent, waitForRun } from "../testing/wait-for-run.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-inbox-restart-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const spec = {
  version: 1,
  id: "refunds",
  name: "Refunds",
  approval: { timeoutS: 3_600, onTimeout: "reject" },
  tools: [
    {
      name: "refund",
      desc: "Refunds an order.",
      sideEffects: "write",
      requiresApproval: true,
      argsSchema: { type: "object", properties: { order: { type: "string", examples: ["A-1"] } } },
      impl: { kind: "mock", output: { refunded: true } },
    },
  ],
};

describe("a server that was down past a pause's due time", () => {
  it("decides it as it starts (SQLite), once, with actor timeout", async () => {
    const first = await startTestServer({ dataDir, exampleAgentsDir: null });
    expect((await first.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const started = await first.request("/api/runs", {
      method: "POST",
      json: { agentId: "refunds", query: "Refund A-1" },
    });
    const paused = await waitForRun(first, started.body.runId, new Set(["paused"]));
    await first.close();

    // The hour passes while no server runs: the pause's due time is now in the past.
    const store = new SqliteStore(path.join(dataDir, "waddle.db"));
    const pastDue = new Date(Date.now() - 60_000).toISOString();
    await store.updateRun(paused.id, { pause: { ...paused.pause!, dueAt: pastDue } });
    await store.close();

    const second = await startTestServer({ dataDir, exampleAgentsDir: null });
    try {
      const resumed = await waitForEvent(second, paused.id, (event) => event.type === "resumed");
      expect(resumed.data).toMatchObject({ decision: "reject", actor: TIMEOUT_ACTOR });
      expect((await waitForRun(second, paused.id)).status).toBe("finished");
      const audit = await second.request(`/api/audit?actor=${TIMEOUT_ACTOR}`);
      expect(audit.body.entries).toEqual([
        expect.objectContaining({
          action: "run.decision",
          target: { type: "run", id: paused.id },
          details: expect.objectContaining({ decision: "reject", via: "timeout", dueAt: pastDue }),
        }),
      ]);
    } finally {
      await second.close();
    }
  });
});
