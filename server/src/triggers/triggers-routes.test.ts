import { AgentSpec, CreateTriggerResponse, TriggersResponse } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

let server: TestServer;
const AGENT = "morning-report";
const base = `/api/agents/${AGENT}/triggers`;
const SCHEDULE = {
  kind: "schedule",
  cron: "0 9 * * 1-5",
  timezone: "Europe/Paris",
  query: "Write the morning report",
  overlap: "skip",
  catchUp: "none",
} as const;
const WEBHOOK = { kind: "webhook", query: "Triage {{body.subject}}", secretMode: "hmac" } as const;

const post = (url: string, json: unknown) => server.request(url, { method: "POST", json });
const patch = (url: string, json: unknown) => server.request(url, { method: "PATCH", json });

beforeAll(async () => {
  server = await startTestServer({ exampleAgentsDir: null });
  for (const id of [AGENT, "other-agent"]) {
    await server.store.createAgent({
      spec: AgentSpec.parse({
        version: 1,
        id,
        name: id,
        tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
      }),
    });
  }
});
afterAll(() => server.stop());

describe("triggers over REST", () => {
  it("creates a schedule that lists its next five fires, and a webhook whose secret is shown once", async () => {
    const created = await post(base, { ...SCHEDULE, name: "Weekdays at nine" });
    expect(created.status, created.text).toBe(201);
    const { trigger, secret } = CreateTriggerResponse.parse(created.body);
    expect(secret).toBeUndefined();
    expect(trigger).toMatchObject({
      kind: "schedule",
      agentId: AGENT,
      enabled: true,
      name: "Weekdays at nine",
    });
    if (trigger.kind !== "schedule") throw new Error("a schedule");
    expect(trigger.nextFires).toHaveLength(5);
    for (const fire of trigger.nextFires) {
      const date = new Date(fire);
      expect(date.getTime()).toBeGreaterThan(Date.now());
      // 09:00 in Paris is 07:00 or 08:00 UTC, Monday to Friday.
      expect([7, 8]).toContain(date.getUTCHours());
      expect([0, 6]).not.toContain(date.getUTCDay());
    }

    const hook = await post(base, WEBHOOK);
    expect(hook.status, hook.text).toBe(201);
    const webhook = CreateTriggerResponse.parse(hook.body);
    expect(webhook.secret).toMatch(/^whk_[A-Za-z0-9_-]{43}$/);
    expect(webhook.trigger).toMatchObject({ kind: "webhook", hookPath: `/hooks/${webhook.trigger.id}` });

    const listed = TriggersResponse.parse((await server.request(base)).body);
    expect(listed.triggers.map((entry) => entry.id)).toEqual([trigger.id, webhook.trigger.id]);
    // The secret never shows again.
    expect(JSON.stringify((await server.request(base)).body)).not.toContain(webhook.secret!);
    expect((await server.request("/api/agents/other-agent/triggers")).body).toEqual({ triggers: [] });
  });

  it("refuses a bad cron, an unknown time zone and a schedule faster than every 10 seconds, naming the field", async () => {
    const cases = [
      { body: { ...SCHEDULE, cron: "61 * * * *" }, field: "$.cron" },
      { body: { ...SCHEDULE, cron: "not a cron" }, field: "$.cron" },
      { body: { ...SCHEDULE, timezone: "Europe/Atlantis" }, field: "$.timezone" },
      { body: { ...SCHEDULE, cron: "*/5 * * * * *" }, field: "$.cron" },
      { body: { ...SCHEDULE, overlap: "sometimes" }, field: "$.overlap" },
      { body: { ...SCHEDULE, catchUp: "all" }, field: "$.catchUp" },
      { body: { ...WEBHOOK, secretMode: "none" }, field: "$.secretMode" },
      { body: { ...WEBHOOK, query: "Triage {{subject}}" }, field: "$.query" },
      { body: { ...SCHEDULE, secretMode: "hmac" }, field: "$" },
      { body: { kind: "email", query: "q" }, field: "$.kind" },
    ];
    for (const { body, field } of cases) {
      const refused = await post(base, body);
      expect(refused.status, `${JSON.stringify(body)} → ${refused.text}`).toBe(400);
      expect(refused.body.code).toBe("validation_failed");
      expect(refused.body.details.issues[0].path, refused.text).toBe(field);
    }
    const fast = await post(base, { ...SCHEDULE, cron: "*/5 * * * * *" });
    expect(fast.body.message).toContain("every 10 seconds");
    expect((await post("/api/agents/no-such-agent/triggers", SCHEDULE)).status).toBe(404);
    expect((await post(base, "not json")).status).toBe(400);
  });

  it("changes a trigger (disabled, a schedule lists no fires), refuses a field of the other kind, and deletes it", async () => {
    const { trigger } = CreateTriggerResponse.parse((await post(base, SCHEDULE)).body);
    const url = `${base}/${trigger.id}`;
    const disabled = await patch(url, { enabled: false, cron: "0 18 * * *", channel: "staging" });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body.trigger).toMatchObject({
      enabled: false,
      cron: "0 18 * * *",
      channel: "staging",
      nextFires: [],
    });
    const enabled = await patch(url, { enabled: true, channel: null });
    expect(enabled.body.trigger.nextFires).toHaveLength(5);
    expect(enabled.body.trigger).not.toHaveProperty("channel");
    expect(enabled.body.trigger.nextFires.every((fire: string) => /T1[67]:00:00/.test(fire))).toBe(true);

    const wrongKind = await patch(url, { secretMode: "bearer" });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.details.issues[0].path).toBe("$.secretMode");
    const fast = await patch(url, { cron: "* * * * * *" });
    expect(fast.status).toBe(400);
    expect(fast.body.details.issues[0].path).toBe("$.cron");
    expect((await patch(url, { kind: "webhook" })).status).toBe(400);
    // Another agent's trigger is not found through this agent.
    expect((await patch(`/api/agents/other-agent/triggers/${trigger.id}`, { enabled: false })).status).toBe(
      404,
    );
    expect((await patch(`${base}/trg_missing`, { enabled: false })).status).toBe(404);

    const fires = await server.request(`${url}/fires`);
    expect(fires.status).toBe(200);
    expect(fires.body).toEqual({ fires: [] });
    expect((await server.request(`${url}/fires?limit=0`)).status).toBe(400);

    expect((await server.request(url, { method: "DELETE" })).status).toBe(204);
    expect((await server.request(url, { method: "DELETE" })).status).toBe(404);
    expect((await server.request(`${url}/fires`)).status).toBe(404);
  });

  it("audits creating, changing and deleting a trigger", async () => {
    const { trigger } = CreateTriggerResponse.parse(
      (await post(base, { ...SCHEDULE, name: "Audited" })).body,
    );
    await patch(`${base}/${trigger.id}`, { cron: "0 10 * * *" });
    await server.request(`${base}/${trigger.id}`, { method: "DELETE" });
    const audit = await server.request(`/api/audit?limit=1000`);
    const entries = (
      audit.body.entries as { action: string; target: { id: string }; details: unknown }[]
    ).filter((entry) => entry.target.id === trigger.id);
    expect(entries.map((entry) => entry.action).sort()).toEqual([
      "trigger.created",
      "trigger.deleted",
      "trigger.updated",
    ]);
    const updated = entries.find((entry) => entry.action === "trigger.updated")!;
    expect(updated.details).toMatchObject({
      agentId: AGENT,
      changes: [{ field: "cron", before: "0 9 * * 1-5", after: "0 10 * * *" }],
    });
  });

  it("removes an agent's triggers with the agent", async () => {
    const { trigger } = CreateTriggerResponse.parse((await post(base, WEBHOOK)).body);
    expect((await server.request(`/api/agents/${AGENT}`, { method: "DELETE" })).status).toBe(204);
    expect(await server.store.triggers.list({ agentId: AGENT })).toEqual([]);
    expect(await server.store.triggers.get(trigger.id)).toBeUndefined();
    expect((await post(`/hooks/${trigger.id}`, {})).status).toBe(404);
    expect((await server.request(base)).status).toBe(404);
  });
});
