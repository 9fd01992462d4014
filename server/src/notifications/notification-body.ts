import { randomBytes } from "node:crypto";
import type { NotificationBody, NotificationEvent } from "@waddle/protocol";
import type { NotificationData } from "./notify.js";

/** `ntf_…`: one notification, whatever number of webhooks it goes to. */
export function createNotificationId(): string {
  return `ntf_${randomBytes(10).toString("hex")}`;
}

/**
 * The designer's address of what a notification is about, as its router reads it: the run
 * (`#/agents/<id>/runs/<runId>`), else the session (`…/sessions/<id>`), else the agent; undefined without
 * an agent.
 */
export function getDesignerLink(options: {
  publicUrl: string;
  agentId?: string | undefined;
  runId?: string | undefined;
  sessionId?: string | undefined;
}): string | undefined {
  const { agentId, runId, sessionId } = options;
  if (!agentId) return undefined;
  const base = `${options.publicUrl.replace(/\/+$/, "")}/#/agents/${encodeURIComponent(agentId)}`;
  if (runId) return `${base}/runs/${encodeURIComponent(runId)}`;
  if (sessionId) return `${base}/sessions/${encodeURIComponent(sessionId)}`;
  return base;
}

/** The body every webhook of a notification is sent (`format: "json"`); `data.link` is the designer's link. */
export function createNotificationBody(options: {
  type: NotificationEvent;
  data: NotificationData;
  publicUrl: string;
  now: Date;
  id?: string;
}): NotificationBody {
  const { data } = options;
  const link = getDesignerLink({
    publicUrl: options.publicUrl,
    agentId: data.agentId,
    runId: data.runId,
    sessionId: data.sessionId,
  });
  return {
    id: options.id ?? createNotificationId(),
    type: options.type,
    createdAt: options.now.toISOString(),
    data: {
      ...data,
      summary: data.summary ?? getNotificationSummary(options.type, data),
      ...(link ? { link } : {}),
    },
  };
}

const SUMMARIES: Readonly<Record<NotificationEvent, (data: NotificationData) => string>> = {
  "pause.created": (data) =>
    data["reason"] === "guard"
      ? `${agentOf(data)} is waiting for a person: a guard held it${messageOf(data)}`
      : `${agentOf(data)} is waiting for a person${toolOf(data)}.`,
  "pause.due_soon": (data) =>
    `${agentOf(data)} is still waiting for a person${toolOf(data)}; it is decided soon.`,
  "pause.timed_out": (data) => `${agentOf(data)} waited too long${toolOf(data)}: the server decided.`,
  "merge.pending": (data) => `${agentOf(data)} holds background results for a person to merge.`,
  "run.failed": (data) => `A run of ${agentOf(data)} failed${errorOf(data)}.`,
  "run.finished": (data) => `A run of ${agentOf(data)} finished.`,
  "budget.exceeded": (data) => `A run of ${agentOf(data)} stopped at its budget.`,
  "trigger.failed": (data) => `A trigger of ${agentOf(data)} failed${errorOf(data)}.`,
  "release.created": (data) =>
    `${agentOf(data)} was released${typeof data["channel"] === "string" ? ` to ${data["channel"]}` : ""}${
      typeof data["version"] === "number" ? ` (v${data["version"]})` : ""
    }.`,
};

/** A sentence a person reads (the Slack message's first line), from the event and what it carries. */
export function getNotificationSummary(type: NotificationEvent, data: NotificationData): string {
  return SUMMARIES[type](data);
}

function agentOf(data: NotificationData): string {
  return data.agentId ? `Agent ${data.agentId}` : "An agent";
}

function toolOf(data: NotificationData): string {
  // A guard holds a tool's result after the call: "before" would say the opposite.
  if (data["reason"] === "guard") return "";
  return typeof data["tool"] === "string" ? ` before ${data["tool"]}` : "";
}

/** A guard's sentence (what it found by kind and count, never the text), or a full stop. */
function messageOf(data: NotificationData): string {
  return typeof data["message"] === "string" ? ` (${data["message"].slice(0, 300)})` : ".";
}

function errorOf(data: NotificationData): string {
  const error = data["error"] as { message?: unknown } | undefined;
  return typeof error?.message === "string" ? `: ${error.message.slice(0, 300)}` : "";
}
