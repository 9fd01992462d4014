/** The answer object of a finished run's payload (`payload.data`, set when the agent has an answer schema). */
export function getAnswerData(payload: unknown): Record<string, unknown> | undefined {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return undefined;
  const data = (payload as { data?: unknown }).data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  return data as Record<string, unknown>;
}

/** The answer object as people read it: pretty-printed JSON, two spaces. */
export function formatAnswerData(data: Record<string, unknown>): string {
  return JSON.stringify(data, null, 2);
}
