import { z } from "zod";
import type { LlmMessage } from "../llm-client.js";
import type { OfflineView } from "./offline-view.js";
import { describeObservation } from "./offline-answer.js";
import { getRunProgress } from "./offline-progress.js";
import { parseJson } from "@waddle/protocol";

/** The summarizer's reply shape: `{goals, facts, pending, last_output_digest}`. */
export interface OfflineSummary {
  goals: string[];
  facts: Record<string, unknown>;
  pending: string[];
  last_output_digest: string;
}

const DEFAULT_MAX_CHARS = 2_000;
const STRING_LIMITS = [400, 200, 100, 50, 20];

/**
 * A summary for a `summarize` call: the state the summarizer was given (a JSON object in the messages)
 * or, failing that, the planner view, cut down until it fits the size the prompt asks for.
 */
export function summarizeOffline(input: {
  messages: readonly LlmMessage[];
  view?: OfflineView;
}): OfflineSummary {
  const maxChars = findMaxChars(input.messages) ?? DEFAULT_MAX_CHARS;
  const draft =
    findDraft(input.messages) ?? (input.view ? fromView(input.view) : fromMessages(input.messages));
  for (const limit of STRING_LIMITS) {
    const candidate = shrink(draft, limit);
    if (JSON.stringify(candidate).length <= maxChars) return candidate;
  }
  return {
    goals: draft.goals.slice(0, 1).map((goal) => goal.slice(0, 40)),
    facts: {},
    pending: [],
    last_output_digest: "",
  };
}

function findMaxChars(messages: readonly LlmMessage[]): number | undefined {
  for (const message of [...messages].reverse()) {
    const match = /(?:fit in|at most|within|under)\s+(\d[\d,]*)\s+characters/i.exec(message.content);
    if (match?.[1] !== undefined) return Number.parseInt(match[1].replace(/,/g, ""), 10);
  }
  return undefined;
}

const Draft = z.looseObject({
  goals: z.array(z.string()).catch([]),
  facts: z.record(z.string(), z.unknown()).catch({}),
  pending: z.array(z.string()).catch([]),
  last_output_digest: z.string().catch(""),
});

/** The rule-based state the summarizer sends as the user message. */
function findDraft(messages: readonly LlmMessage[]): OfflineSummary | undefined {
  for (const message of messages) {
    if (message.role !== "user" || !message.content.trimStart().startsWith("{")) continue;
    const json = parseJson(message.content);
    const raw = json.ok ? json.value : undefined;
    if (typeof raw !== "object" || raw === null || !("goals" in raw)) continue;
    const parsed = Draft.safeParse(raw);
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

function fromView(view: OfflineView): OfflineSummary {
  const progress = getRunProgress(view);
  const facts: Record<string, unknown> = {};
  for (const observed of [...progress.observations].reverse()) facts[observed.tool] = observed.value;
  const latest = progress.observations[0];
  return {
    goals: [view.query],
    facts,
    pending: [...progress.failed.keys()].map((tool) => `recover from the failure of ${tool}`),
    last_output_digest: latest === undefined ? "" : describeObservation(latest),
  };
}

function fromMessages(messages: readonly LlmMessage[]): OfflineSummary {
  const user = messages.find((message) => message.role === "user")?.content ?? "";
  const last = messages.at(-1)?.content ?? "";
  return {
    goals: user === "" ? [] : [user],
    facts: {},
    pending: [],
    last_output_digest: last === user ? "" : last,
  };
}

function shrink(summary: OfflineSummary, limit: number): OfflineSummary {
  const keys = Object.keys(summary.facts).slice(0, Math.max(2, Math.floor(limit / 20)));
  return {
    goals: summary.goals.slice(0, 3).map((goal) => clip(goal, limit)),
    facts: Object.fromEntries(keys.map((key) => [key, shrinkValue(summary.facts[key], limit)])),
    pending: summary.pending.slice(0, 5).map((item) => clip(item, limit)),
    last_output_digest: clip(summary.last_output_digest, limit * 2),
  };
}

function shrinkValue(value: unknown, limit: number): unknown {
  if (typeof value === "string") return clip(value, limit);
  if (Array.isArray(value)) return value.slice(0, 3).map((item) => shrinkValue(item, limit / 2));
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).slice(0, 5);
    return Object.fromEntries(entries.map(([key, item]) => [key, shrinkValue(item, limit / 2)]));
  }
  return value;
}

function clip(text: string, limit: number): string {
  const max = Math.max(8, Math.floor(limit));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
