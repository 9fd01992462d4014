import { describe, expect, it } from "vitest";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { createApiRequester } from "./api-requester.js";
import { createTriggersApi } from "./triggers-api.js";

const schedule = {
  id: "trg_1",
  agentId: "digest",
  kind: "schedule",
  cron: "*/10 * * * * *",
  timezone: "Europe/Paris",
  query: "Summarise the day",
  overlap: "skip",
  catchUp: "none",
  name: null,
  enabled: true,
  createdAt: "2026-01-05T09:00:00Z",
  createdBy: "alice",
  updatedAt: "2026-01-05T09:00:00Z",
  lastFiredAt: null,
  nextFires: ["2026-01-05T09:00:10Z"],
};
const fire = {
  id: "fire_1",
  triggerId: "trg_1",
  firedAt: "2026-01-05T09:00:10Z",
  status: "started",
  runId: "run_9",
  error: null,
};

describe("createTriggersApi", () => {
  it("creates, lists, patches, deletes and reads fires on the agent's trigger routes", async () => {
    const { fetcher, calls } = createRecordingFetch(({ method, url }) => {
      if (url.endsWith("/fires")) return { status: 200, body: { fires: [fire] } };
      if (method === "POST") return { status: 201, body: { trigger: schedule } };
      if (method === "PATCH") return { status: 200, body: { trigger: { ...schedule, enabled: false } } };
      if (method === "DELETE") return { status: 204 };
      return { status: 200, body: { triggers: [schedule] } };
    });
    const api = createTriggersApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    const { trigger, secret } = await api.createTrigger("digest", {
      kind: "schedule",
      cron: schedule.cron,
      timezone: schedule.timezone,
      query: schedule.query,
      overlap: "skip",
      catchUp: "none",
    });
    expect(trigger.kind === "schedule" && trigger.nextFires).toEqual(["2026-01-05T09:00:10Z"]);
    expect(secret).toBeUndefined();
    await expect(api.listTriggers("digest")).resolves.toHaveLength(1);
    await expect(api.updateTrigger("digest", "trg_1", { enabled: false })).resolves.toMatchObject({
      enabled: false,
    });
    await api.deleteTrigger("digest", "trg_1");
    await expect(api.listTriggerFires("digest", "trg_1")).resolves.toEqual([fire]);
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "POST /api/agents/digest/triggers",
      "GET /api/agents/digest/triggers",
      "PATCH /api/agents/digest/triggers/trg_1",
      "DELETE /api/agents/digest/triggers/trg_1",
      "GET /api/agents/digest/triggers/trg_1/fires",
    ]);
    expect(calls[2]?.body).toEqual({ enabled: false });
  });

  it("hands a webhook's secret back once, and the server's field error on a bad cron", async () => {
    const webhook = {
      ...schedule,
      kind: "webhook",
      secretMode: "hmac",
      hookPath: "/hooks/trg_2",
      cron: undefined,
      timezone: undefined,
      overlap: undefined,
      catchUp: undefined,
      nextFires: undefined,
    };
    const { fetcher } = createRecordingFetch(({ body }) =>
      (body as { kind: string }).kind === "webhook"
        ? { status: 201, body: { trigger: webhook, secret: "whsec_abc" } }
        : { status: 400, body: { code: "validation_failed", message: "cron: not a cron expression" } },
    );
    const api = createTriggersApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(
      api.createTrigger("digest", { kind: "webhook", query: "{{body.subject}}", secretMode: "hmac" }),
    ).resolves.toMatchObject({ secret: "whsec_abc", trigger: { hookPath: "/hooks/trg_2" } });
    await expect(
      api.createTrigger("digest", {
        kind: "schedule",
        cron: "nope",
        timezone: "UTC",
        query: "q",
        overlap: "skip",
        catchUp: "none",
      }),
    ).rejects.toMatchObject({ code: "validation_failed", status: 400 });
  });
});
