import type { SessionSummary } from "@waddle/protocol";

/** The list with this session added or replaced, newest activity first (as `GET /api/sessions` orders). */
export function upsertSession(
  sessions: readonly SessionSummary[],
  session: SessionSummary,
): SessionSummary[] {
  const known = sessions.find((candidate) => candidate.id === session.id);
  // an update that arrives after a newer one (a list loaded meanwhile) changes nothing
  if (known !== undefined && known.updatedAt > session.updatedAt) return [...sessions];
  return [...sessions.filter((candidate) => candidate.id !== session.id), session].sort((left, right) =>
    left.updatedAt < right.updatedAt ? 1 : left.updatedAt > right.updatedAt ? -1 : 0,
  );
}

/** Sessions whose title or last message contain every word of the search (any case). */
export function filterSessions(sessions: readonly SessionSummary[], search: string): SessionSummary[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...sessions];
  return sessions.filter((session) => {
    const text = `${session.title}\n${session.lastQuery ?? ""}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
