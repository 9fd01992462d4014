import {
  applySessionEvent,
  createSessionRecord,
  type NewSessionEvent,
  type SessionEvent,
  type SessionRecord,
  type SessionSummary,
} from "@waddle/protocol";

/** The summary a session list shows, from its record. */
export function getSessionSummary(record: SessionRecord): SessionSummary {
  return {
    id: record.id,
    agentId: record.agentId,
    agentVersion: record.agentVersion,
    title: record.title,
    status: record.status,
    usage: record.usage,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    turnCount: record.turns.length,
    lastQuery: record.turns.at(-1)?.query ?? null,
  };
}

export function newSessionRecord(options: {
  id: string;
  agentId: string;
  agentVersion: number;
  channel?: string;
  title?: string;
  now?: string;
}): SessionRecord {
  return createSessionRecord({
    id: options.id,
    agentId: options.agentId,
    agentVersion: options.agentVersion,
    channel: options.channel,
    title: options.title ?? null,
    createdAt: options.now ?? new Date().toISOString(),
  });
}

/** Numbers new events after the record's last seq and folds them in; both are what the store writes. */
export function appendToRecord(
  record: SessionRecord,
  events: readonly NewSessionEvent[],
): { record: SessionRecord; events: SessionEvent[] } {
  let folded = record;
  const numbered: SessionEvent[] = [];
  for (const event of events) {
    const next = {
      ...event,
      sessionId: record.id,
      seq: folded.lastSeq + 1,
      ts: event.ts ?? Date.now(),
    } as SessionEvent;
    numbered.push(next);
    folded = applySessionEvent(folded, next);
  }
  return { record: folded, events: numbered };
}
