import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunEvent, RunRecord, RunStatusMessage, SubscribeAck } from "@waddle/protocol";
import { io as connect } from "socket.io-client";
import { afterAll, describe, expect, it } from "vitest";
import { startTestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-paused-restart-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("a run left paused by a server that stopped", () => {
  it("serves its events after a seq and its socket replay on restart, then goes on live when answered", async () => {
    const first = await startTestServer({ dataDir });
    const started = await first.request("/api/runs", {
      method: "POST",
      json: { agentId: "email-approval", query: "Email Dana that the Q3 report is ready" },
    });
    const runId = started.body.runId as string;
    const paused = await waitForRun(first, runId, new Set(["paused", "failed", "finished"]));
    expect(paused.status).toBe("paused");
    const before = await first.store.listEvents(runId);
    await first.close();

    const second = await startTestServer({ dataDir });
    const socket = connect(second.url, { transports: ["websocket"], reconnection: false });
    try {
      const lastSeq = before.length;
      expect(lastSeq).toBeGreaterThan(2);
      const run = (await second.request(`/api/runs/${runId}`)).body as RunRecord;
      expect(run).toMatchObject({
        status: "paused",
        lastSeq,
        pause: { resumeToken: paused.pause?.resumeToken },
      });
      expect((await second.request(`/api/runs/${runId}/events?after=2`)).body.events).toEqual(
        before.slice(2),
      );
      expect((await second.request(`/api/runs/${runId}/events?after=${lastSeq}`)).body.events).toEqual([]);

      const events: RunEvent[] = [];
      const statuses: RunStatusMessage[] = [];
      const updates: RunRecord[] = [];
      socket.on("event", (event: RunEvent) => events.push(event));
      socket.on("run_status", (message: RunStatusMessage) => statuses.push(message));
      socket.on("run_updated", (update: RunRecord) => updates.push(update));
      if (!socket.connected) await new Promise<void>((resolve) => socket.once("connect", resolve));
      expect(await socket.emitWithAck("watch_agent", { agentId: "email-approval" })).toEqual({ ok: true });
      const ack = (await socket.emitWithAck("subscribe", { runId, afterSeq: lastSeq - 1 })) as SubscribeAck;
      expect(ack).toEqual({ ok: true, status: "paused", lastSeq });
      expect(events).toEqual(before.slice(-1));
      expect(events[0]?.type).toBe("pause");
      expect(statuses).toEqual([{ runId, status: "paused", lastSeq }]);

      const resumed = await second.request(`/api/runs/${runId}/resume`, {
        method: "POST",
        json: { resumeToken: run.pause!.resumeToken, decision: "approve" },
      });
      expect(resumed.status).toBe(202);
      const finished = await waitForRun(second, runId);
      expect(finished.status).toBe("finished");
      const all = await second.store.listEvents(runId);
      await expect.poll(() => events.length).toBe(all.length - lastSeq + 1);
      expect(events).toEqual(all.slice(lastSeq - 1));
      await expect.poll(() => updates.at(-1)?.status).toBe("finished");
      expect(updates.at(-1)).toEqual((await second.request(`/api/runs/${runId}`)).body);
    } finally {
      socket.disconnect();
      await second.close();
    }
  }, 30_000);
});
