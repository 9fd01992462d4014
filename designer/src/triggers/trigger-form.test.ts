import type { Trigger } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import {
  getCreateTriggerRequest,
  getCronProblem,
  getNewTriggerForm,
  getTriggerForm,
  getTriggerFormErrors,
  getUpdateTriggerRequest,
} from "./trigger-form.js";

const saved: Trigger = {
  id: "trg_1",
  agentId: "digest",
  kind: "schedule",
  cron: "0 9 * * 1-5",
  timezone: "Europe/Paris",
  query: "Summarise yesterday",
  channel: "staging",
  overlap: "skip",
  catchUp: "last",
  name: "Mornings",
  enabled: true,
  createdAt: "2026-01-05T09:00:00Z",
  createdBy: "alice",
  updatedAt: "2026-01-05T09:00:00Z",
  lastFiredAt: null,
  nextFires: [],
};

describe("getCronProblem", () => {
  it("takes five fields, or six with seconds first", () => {
    expect(getCronProblem("*/10 * * * *")).toBeNull();
    expect(getCronProblem("*/10 * * * * *")).toBeNull();
    expect(getCronProblem("0 9 * * MON-FRI")).toBeNull();
    expect(getCronProblem("")).toMatch(/^Enter a cron expression/);
    expect(getCronProblem("* * *")).toMatch(/has 5 fields .* this has 3/);
    expect(getCronProblem("* * * * {}")).toBe('"{}" is not a cron field.');
  });

  it("refuses a schedule more often than every 10 seconds, as the server does", () => {
    expect(getCronProblem("* * * * * *")).toMatch(/every 1 s; a schedule fires at most every 10 seconds/);
    expect(getCronProblem("*/5 * * * * *")).toMatch(/every 5 s/);
    expect(getCronProblem("0,5 * * * * *")).toMatch(/every 5 s/);
    expect(getCronProblem("0-59/9 * * * * *")).toMatch(/every 9 s/);
    expect(getCronProblem("0,30 * * * * *")).toBeNull();
    expect(getCronProblem("15 * * * * *")).toBeNull();
  });
});

describe("getTriggerFormErrors", () => {
  it("names each field to fix", () => {
    const form = { ...getNewTriggerForm("schedule", "Mars/Olympus"), cron: "*", channel: "Prod!" };
    expect(Object.keys(getTriggerFormErrors(form)).sort()).toEqual(["channel", "cron", "query", "timezone"]);
    const webhook = getNewTriggerForm("webhook", "UTC");
    expect(getTriggerFormErrors(webhook)).toEqual({});
  });
});

describe("the trigger requests", () => {
  it("sends only the fields of the form's kind", () => {
    const schedule = {
      ...getNewTriggerForm("schedule", "Europe/Paris"),
      cron: " */10  * * * * * ",
      query: " Check the queue ",
    };
    expect(getCreateTriggerRequest(schedule)).toEqual({
      kind: "schedule",
      cron: "*/10 * * * * *",
      timezone: "Europe/Paris",
      query: "Check the queue",
      enabled: true,
      overlap: "skip",
      catchUp: "none",
    });
    const webhook = {
      ...getNewTriggerForm("webhook", "UTC"),
      secretMode: "bearer" as const,
      idempotencyField: "id",
    };
    expect(getCreateTriggerRequest(webhook)).toEqual({
      kind: "webhook",
      query: "New event: {{body.subject}}",
      enabled: true,
      secretMode: "bearer",
      idempotencyField: "id",
    });
  });

  it("patches only what changed, a cleared channel as null", () => {
    const form = getTriggerForm(saved);
    expect(getUpdateTriggerRequest(form, saved)).toEqual({});
    expect(getUpdateTriggerRequest({ ...form, cron: "0 8 * * 1-5", channel: "", name: "" }, saved)).toEqual({
      cron: "0 8 * * 1-5",
      channel: null,
      name: "",
    });
    expect(getUpdateTriggerRequest({ ...form, enabled: false }, saved)).toEqual({ enabled: false });
  });
});
