import { TIMEOUT_ACTOR, type InboxItem, type RunEvent } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "../testing/real-parts.js";
import {
  SCALE_AGENT,
  startTestCluster,
  type ClusterInstance,
  type TestCluster,
} from "../testing/start-test-cluster.js";

// PostgreSQL, redis-server and three Waddle instances (role all): run with WADDLE_TEST_SCALE_OUT=only.
const skip = getMissingPartsReason(["postgres", "redis"]);

/** The charge waits for a person at most two seconds; then the server rejects it. */
const TIMED_AGENT = {
  ...SCALE_AGENT,
  id: "scale-timed-approval",
  name: "Scale timed approval",
  tools: SCALE_AGENT.tools.map((tool) =>
    tool.name === "charge_card"
      ? { ...tool, requiresApproval: true, approval: { timeoutS: 2, onTimeout: "reject" } }
      : tool,
  ),
};

/** A socket on one instance watching the whole inbox: what it was told, by event. */
async function watchInbox(instance: ClusterInstance) {
  const socket: Socket = connect(instance.url, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
  });
  const seen: { event: string; itemId: string; item?: InboxItem }[] = [];
  for (const event of ["inbox_item_added", "inbox_item_updated", "inbox_item_removed"]) {
    socket.on(event, (payload: { item?: InboxItem; itemId?: string }) =>
      seen.push({
        event,
        itemId: payload.item?.itemId ?? payload.itemId ?? "",
        ...(payload.item ? { item: payload.item } : {}),
      }),
    );
  }
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  const ack = (await socket.timeout(10_000).emitWithAck("watch_inbox", {})) as { ok: boolean };
  expect(ack.ok).toBe(true);
  const until = (event: string, itemId: string) =>
    new Promise<InboxItem | undefined>((resolve) => {
      const check = () => {
        const found = seen.find((entry) => entry.event === event && entry.itemId === itemId);
        if (found) return resolve(found.item);
        socket.once(event, check);
      };
      check();
    });
  return { socket, seen, until };
}

describe.skipIf(skip)("the approvals inbox on three instances in queue mode", () => {
  let cluster: TestCluster;
  let instances: ClusterInstance[];
  beforeAll(async () => {
    cluster = await startTestCluster({ WADDLE_TEST_STEP_MS: "50" });
    // The first applies the migrations; the other two start together.
    const first = await cluster.start("all");
    instances = [first, ...(await Promise.all([cluster.start("all"), cluster.start("all")]))];
    expect((await first.request("/api/agents", { json: TIMED_AGENT })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  it("shows the pause live on another instance, and rejects it at its 2-second limit exactly once", async () => {
    const [first, second, third] = instances as [ClusterInstance, ClusterInstance, ClusterInstance];
    const watcher = await watchInbox(third);
    const since = Date.now();
    const started = await first.request("/api/runs", { json: { agentId: TIMED_AGENT.id, query: "go" } });
    expect(started.status).toBe(202);
    const runId = started.body.runId as string;
    const itemId = `pause:${runId}`;

    // The pause, wherever a worker recorded it, reaches the socket on the third instance and every list.
    const added = await watcher.until("inbox_item_added", itemId);
    expect(added).toMatchObject({ tool: "charge_card", onTimeout: "reject", runId });
    expect(Date.parse(added!.dueAt!) - Date.parse(added!.createdAt)).toBe(2_000);
    const listed = await second.request("/api/inbox");
    expect(listed.body.items.map((item: InboxItem) => item.itemId)).toContain(itemId);

    await watcher.until("inbox_item_removed", itemId);
    const run = await cluster.waitForRun(runId);
    expect(run.status).toBe("finished");
    const events: RunEvent[] = await cluster.getEvents(runId);
    const decisions = events.filter((event) => event.type === "resumed");
    expect(decisions.map((event) => event.data)).toEqual([
      expect.objectContaining({ decision: "reject", actor: TIMEOUT_ACTOR }),
    ]);
    const pausedAt = events.find((event) => event.type === "pause")!.ts;
    expect(decisions[0]!.ts - pausedAt).toBeGreaterThanOrEqual(2_000);
    // Rejected: the charge never ran, and the run went on to its answer.
    const calls = cluster.calls().filter((call) => call.at >= since);
    expect(calls.map((call) => call.tool)).toContain("step_three");
    expect(calls.map((call) => call.tool)).not.toContain("charge_card");

    const audit = await second.request(`/api/audit?actor=${TIMEOUT_ACTOR}`);
    const entries = (audit.body.entries as { action: string; target: { id: string } }[]).filter(
      (entry) => entry.target.id === runId,
    );
    expect(entries.map((entry) => entry.action)).toEqual(["run.decision"]);
    // Each instance's sweeper heard of the pause and woke at its due time; one decided it.
    const said = (pattern: RegExp) =>
      instances.map(
        (instance) =>
          instance
            .output()
            .split("\n")
            .filter((line) => pattern.test(line) && line.includes(runId)).length,
      );
    expect(said(/decided here/).reduce((a, b) => a + b, 0)).toBe(1);
    const lost = said(/decided elsewhere first/).reduce((a, b) => a + b, 0);
    process.stdout.write(`[scale-out inbox] instances that lost the race for ${runId}: ${lost}\n`);

    // A late answer from a person, on any instance, is the same 409 as a second person's.
    const late = await second.request(`/api/runs/${runId}/resume`, {
      json: { resumeToken: added!.resumeToken, decision: "approve" },
    });
    expect(late.status).toBe(409);
    expect(late.body.details.reason).toBe("already_answered");
    watcher.socket.close();
  }, 90_000);
});
