import { createHmac } from "node:crypto";
import { AgentSpec, CreateTriggerResponse, TriggerFiresResponse } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

const TOKEN = "token-that-hooks-never-need";
let server: TestServer;
const AGENT = "ticket-triage";

/** `Waddle-Signature` as a sender computes it: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>. */
function sign(secret: string, body: string, nowMs = Date.now()): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/** A raw POST to a hook: the body is sent as these exact bytes. */
async function deliver(
  path: string,
  body: string,
  headers: Record<string, string> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test answers are read field by field
): Promise<{ status: number; body: any; text: string }> {
  return server.request(path, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
}

async function createWebhook(
  json: Record<string, unknown>,
): Promise<{ id: string; secret: string; path: string }> {
  const created = await server.request(`/api/agents/${AGENT}/triggers`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}` },
    json: {
      kind: "webhook",
      query: "Triage ticket {{body.ticket.id}}: {{body.subject}}",
      secretMode: "hmac",
      ...json,
    },
  });
  expect(created.status, created.text).toBe(201);
  const { trigger, secret } = CreateTriggerResponse.parse(created.body);
  return { id: trigger.id, secret: secret!, path: `/hooks/${trigger.id}` };
}

const admin = { authorization: `Bearer ${TOKEN}` };
const runsOf = async (triggerId: string) =>
  (await server.request(`/api/runs?trigger=${triggerId}`, { headers: admin })).body.runs as { id: string }[];

beforeAll(async () => {
  // A server with WADDLE_TOKEN: /hooks needs the trigger's secret and nothing else.
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null });
  await server.store.createAgent({
    spec: AgentSpec.parse({
      version: 1,
      id: AGENT,
      name: "Ticket triage",
      tools: [
        { name: "lookup", desc: "Looks the ticket up", impl: { kind: "mock", output: { found: true } } },
      ],
    }),
  });
});
afterAll(() => server.stop());

const TICKET = JSON.stringify({ id: "evt_1", subject: "Refund «late»", ticket: { id: 42 } });

describe("webhook triggers: POST /hooks/:triggerId", () => {
  it("starts a run from a signed delivery: query filled from the JSON, the trigger in its summary and History", async () => {
    const hook = await createWebhook({ context: { team: "support" } });
    const accepted = await deliver(hook.path, TICKET, { "waddle-signature": sign(hook.secret, TICKET) });
    expect(accepted.status, accepted.text).toBe(202);
    const { runId } = accepted.body as { runId: string };
    expect(accepted.body).toEqual({ runId });
    const run = await waitForRun(server, runId);
    expect(run).toMatchObject({
      query: "Triage ticket 42: Refund «late»",
      trigger: { id: hook.id, kind: "webhook" },
    });
    expect((await runsOf(hook.id)).map((entry) => entry.id)).toEqual([runId]);
    const fires = TriggerFiresResponse.parse(
      (await server.request(`/api/agents/${AGENT}/triggers/${hook.id}/fires`, { headers: admin })).body,
    );
    expect(fires.fires).toMatchObject([{ status: "started", runId, error: null, runStatus: run.status }]);
  });

  it("answers every refused signature with the same 401: wrong, missing, malformed, another body, replayed", async () => {
    const hook = await createWebhook({});
    const stale = Date.now() - 301_000;
    const attempts: Record<string, string>[] = [
      { "waddle-signature": sign("whk_wrong", TICKET) },
      {},
      { "waddle-signature": "t=abc,v1=zz" },
      { "waddle-signature": sign(hook.secret, `${TICKET} `) },
      { "waddle-signature": sign(hook.secret, TICKET, stale) },
      { "waddle-signature": sign(hook.secret, TICKET, Date.now() + 301_000) },
      // The server's token is no credential here.
      { authorization: `Bearer ${TOKEN}` },
    ];
    const bodies = new Set<string>();
    for (const headers of attempts) {
      const refused = await deliver(hook.path, TICKET, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(401);
      bodies.add(refused.text);
    }
    expect(bodies.size).toBe(1);
    expect(await runsOf(hook.id)).toEqual([]);
    // Within the window (4 minutes old) it is taken.
    const recent = await deliver(hook.path, TICKET, {
      "waddle-signature": sign(hook.secret, TICKET, Date.now() - 240_000),
    });
    expect(recent.status).toBe(202);
  });

  it("takes a bearer secret in bearer mode, and refuses a wrong one with the same 401", async () => {
    const hook = await createWebhook({ secretMode: "bearer" });
    expect((await deliver(hook.path, TICKET, { authorization: `Bearer ${hook.secret}` })).status).toBe(202);
    const wrong = await deliver(hook.path, TICKET, { authorization: `Bearer ${hook.secret}x` });
    const signed = await deliver(hook.path, TICKET, { "waddle-signature": sign(hook.secret, TICKET) });
    expect([wrong.status, signed.status]).toEqual([401, 401]);
    expect(wrong.text).toBe(signed.text);
  });

  it("makes a redelivery one run: Idempotency-Key, or the body's field the trigger names", async () => {
    const hook = await createWebhook({ idempotencyField: "id" });
    const headers = { "waddle-signature": sign(hook.secret, TICKET) };
    const first = await deliver(hook.path, TICKET, headers);
    const again = await deliver(hook.path, TICKET, headers);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ runId: first.body.runId, duplicate: true });

    const other = JSON.stringify({ id: "evt_2", subject: "Other", ticket: { id: 7 } });
    const keyed = { "waddle-signature": sign(hook.secret, other), "idempotency-key": "delivery-7" };
    const third = await deliver(hook.path, other, keyed);
    const fourth = await deliver(hook.path, other, keyed);
    expect(fourth.body).toEqual({ runId: third.body.runId, duplicate: true });
    expect(third.body.runId).not.toBe(first.body.runId);
    expect((await runsOf(hook.id)).length).toBe(2);
  });

  it("with ?wait=S answers once the run has ended, and refuses a wait over 60 s", async () => {
    const hook = await createWebhook({});
    const answered = await deliver(`${hook.path}?wait=30`, TICKET, {
      "waddle-signature": sign(hook.secret, TICKET),
    });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toMatchObject({
      runId: expect.any(String),
      status: "finished",
      answer: expect.any(String),
    });
    const tooLong = await deliver(`${hook.path}?wait=61`, TICKET, {
      "waddle-signature": sign(hook.secret, TICKET),
    });
    expect(tooLong.status).toBe(400);
  });

  it("refuses a body over 1 MB (413), one that does not fill the query (422 naming the fields, nothing started), and a disabled trigger (404)", async () => {
    const hook = await createWebhook({});
    const big = JSON.stringify({ subject: "x".repeat(1_100_000), ticket: { id: 1 } });
    const tooLarge = await deliver(hook.path, big, { "waddle-signature": sign(hook.secret, big) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.code).toBe("payload_too_large");

    const partial = JSON.stringify({ ticket: {} });
    const missing = await deliver(hook.path, partial, { "waddle-signature": sign(hook.secret, partial) });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      code: "missing_fields",
      details: { fields: ["ticket.id", "subject"] },
    });
    const notJson = "{not json";
    expect(
      (await deliver(hook.path, notJson, { "waddle-signature": sign(hook.secret, notJson) })).status,
    ).toBe(400);
    expect(await runsOf(hook.id)).toEqual([]);

    await server.request(`/api/agents/${AGENT}/triggers/${hook.id}`, {
      method: "PATCH",
      headers: admin,
      json: { enabled: false },
    });
    const disabled = await deliver(hook.path, TICKET, { "waddle-signature": sign(hook.secret, TICKET) });
    expect(disabled.status).toBe(404);
    expect((await deliver("/hooks/trg_unknown", TICKET, {})).status).toBe(404);
    expect((await deliver("/hooks/not-an-id", TICKET, {})).status).toBe(404);
  });

  it("fails a delivery whose channel does not exist with channel_not_found, and says so in the fires list", async () => {
    const hook = await createWebhook({ channel: "staging" });
    const refused = await deliver(hook.path, TICKET, { "waddle-signature": sign(hook.secret, TICKET) });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "channel_not_found", details: { channel: "staging" } });
    const fires = (await server.request(`/api/agents/${AGENT}/triggers/${hook.id}/fires`, { headers: admin }))
      .body;
    expect(fires.fires).toMatchObject([
      { status: "failed", runId: null, error: { code: "channel_not_found" } },
    ]);
    expect(await runsOf(hook.id)).toEqual([]);
  });
});
