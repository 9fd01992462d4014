import type { Trigger } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createApiRequester } from "../api/api-requester.js";
import { createTriggersApi } from "../api/triggers-api.js";
import { createRecordingFetch, type RecordedRequest } from "../testing/create-recording-fetch.js";
import { getNewTriggerForm, getTriggerForm } from "./trigger-form.js";
import { createTriggersStore, getServerFieldErrors } from "./triggers-store.js";
import { ApiError } from "../api/api-error.js";

const stamp = {
  name: null,
  enabled: true,
  createdAt: "2026-01-05T09:00:00Z",
  createdBy: "alice",
  updatedAt: "2026-01-05T09:00:00Z",
  lastFiredAt: null,
};

/** The trigger routes of one agent in memory, as the server answers them. */
function createServer() {
  const triggers = new Map<string, Trigger>();
  let next = 1;
  const handle = ({ method, url, body }: RecordedRequest) => {
    const id = /\/triggers\/(trg_\d+)/.exec(url)?.[1];
    if (url.endsWith("/fires"))
      return {
        status: 200,
        body: {
          fires: [
            {
              id: "f1",
              triggerId: id,
              firedAt: "2026-01-05T09:00:10Z",
              status: "started",
              runId: "run_1",
              error: null,
            },
          ],
        },
      };
    if (method === "GET") return { status: 200, body: { triggers: [...triggers.values()] } };
    if (method === "DELETE") {
      triggers.delete(id!);
      return { status: 204 };
    }
    const request = body as Record<string, unknown>;
    if (request.cron === "61 * * * *")
      return {
        status: 400,
        body: { code: "validation_failed", message: "cron: 61 is out of range", details: { field: "cron" } },
      };
    if (method === "PATCH") {
      const trigger = { ...triggers.get(id!)!, ...request } as Trigger;
      triggers.set(trigger.id, trigger);
      return { status: 200, body: { trigger } };
    }
    const created = {
      ...stamp,
      ...request,
      id: `trg_${next++}`,
      agentId: "digest",
      ...(request.kind === "schedule"
        ? { nextFires: ["2026-01-05T09:10:00Z"] }
        : { hookPath: `/hooks/trg_${next - 1}` }),
    } as Trigger;
    triggers.set(created.id, created);
    return {
      status: 201,
      body: { trigger: created, ...(request.kind === "webhook" ? { secret: "whsec_once" } : {}) },
    };
  };
  const { fetcher, calls } = createRecordingFetch(handle);
  const api = createTriggersApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
  return { api, calls, triggers };
}

describe("the triggers store", () => {
  it("creates a schedule, shows its next fires, and turns it off and on", async () => {
    const { api } = createServer();
    const store = createTriggersStore({ api, agentId: "digest" });
    await store.getState().load();
    const form = { ...getNewTriggerForm("schedule", "Europe/Paris"), query: "Check the queue" };
    const result = await store.getState().save(form);
    expect("trigger" in result && result.trigger.kind === "schedule" && result.trigger.nextFires).toEqual([
      "2026-01-05T09:10:00Z",
    ]);
    const [saved] = store.getState().triggers;
    expect(store.getState().secret).toBeNull();
    await store.getState().setEnabled(saved!.id, false);
    expect(store.getState().triggers[0]?.enabled).toBe(false);
    await store.getState().loadFires(saved!.id);
    expect(store.getState().fires[saved!.id]).toHaveLength(1);
    await store.getState().remove(saved!.id);
    expect(store.getState().triggers).toEqual([]);
    expect(store.getState().fires).toEqual({});
  });

  it("keeps a webhook's secret to show once", async () => {
    const { api } = createServer();
    const store = createTriggersStore({ api, agentId: "digest" });
    const result = await store.getState().save(getNewTriggerForm("webhook", "UTC"));
    const id = "trigger" in result ? result.trigger.id : "";
    expect(store.getState().secret).toEqual({ triggerId: id, secret: "whsec_once" });
  });

  it("puts a refusal on its field: the form's own checks first, then the server's 400", async () => {
    const { api, calls } = createServer();
    const store = createTriggersStore({ api, agentId: "digest" });
    const form = { ...getNewTriggerForm("schedule", "UTC"), query: "q" };
    expect(await store.getState().save({ ...form, cron: "* * *" })).toEqual({
      errors: { cron: expect.stringMatching(/5 fields/) },
    });
    expect(calls).toHaveLength(0);
    expect(await store.getState().save({ ...form, cron: "61 * * * *" })).toEqual({
      errors: { cron: "cron: 61 is out of range" },
    });
  });

  it("saves only the changes of an edit", async () => {
    const { api, calls } = createServer();
    const store = createTriggersStore({ api, agentId: "digest" });
    const created = await store.getState().save({ ...getNewTriggerForm("schedule", "UTC"), query: "q" });
    const trigger = "trigger" in created ? created.trigger : null;
    await store.getState().save({ ...getTriggerForm(trigger!), cron: "0 * * * *" }, trigger!);
    expect(calls.at(-1)).toMatchObject({ method: "PATCH", body: { cron: "0 * * * *" } });
  });
});

describe("getServerFieldErrors", () => {
  it("finds the field a 400 names, in details or in its message", () => {
    expect(getServerFieldErrors(new ApiError("validation_failed", "x", 400, { field: "timezone" }))).toEqual({
      timezone: "x",
    });
    expect(
      getServerFieldErrors(
        new ApiError("validation_failed", "Fix the field", 400, {
          issues: [{ path: "$.cron", message: "bad" }],
        }),
      ),
    ).toEqual({ cron: "bad" });
    expect(getServerFieldErrors(new ApiError("validation_failed", "timezone: unknown", 400))).toEqual({
      timezone: "timezone: unknown",
    });
    expect(getServerFieldErrors(new ApiError("internal", "boom", 500))).toBeNull();
  });
});
