const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "12 s", "4 min", "1 h 5 min", "2 d 3 h": how long something has lasted, to the unit that matters. */
export function formatWaitDuration(ms: number): string {
  const value = Math.max(0, ms);
  if (value < MINUTE) return `${Math.floor(value / 1000)} s`;
  if (value < HOUR) return `${Math.floor(value / MINUTE)} min`;
  if (value < DAY) {
    const minutes = Math.floor((value % HOUR) / MINUTE);
    return `${Math.floor(value / HOUR)} h${minutes ? ` ${minutes} min` : ""}`;
  }
  const hours = Math.floor((value % DAY) / HOUR);
  return `${Math.floor(value / DAY)} d${hours ? ` ${hours} h` : ""}`;
}

/** "waiting 4 min": since the item began waiting; "" for a time that cannot be read. */
export function getWaitedLabel(createdAt: string, now: number): string {
  const since = Date.parse(createdAt);
  return Number.isFinite(since) ? `waiting ${formatWaitDuration(now - since)}` : "";
}

/** A countdown to a time: `0:42`, `12:05`, `1:02:09`, then `2 d 3 h` beyond a day. */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds >= DAY / 1000) return formatWaitDuration(seconds * 1000);
  const pad = (value: number) => String(value).padStart(2, "0");
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

export interface DueLabel {
  /** "rejects in 4:59", or "rejecting now" once due (the server decides it on its next look). */
  text: string;
  /** Under a minute left, or past due: shown in the warning tone. */
  urgent: boolean;
  overdue: boolean;
}

const ACTIONS = {
  reject: { soon: "rejects", now: "rejecting" },
  approve: { soon: "approves", now: "approving" },
  fail: { soon: "fails", now: "failing" },
} as const;

/** What happens at the item's due time and in how long, counting down; null without a due time. */
export function getDueLabel(
  dueAt: string | null | undefined,
  onTimeout: keyof typeof ACTIONS | undefined,
  now: number,
): DueLabel | null {
  if (!dueAt) return null;
  const due = Date.parse(dueAt);
  if (!Number.isFinite(due)) return null;
  const action = ACTIONS[onTimeout ?? "reject"];
  const left = due - now;
  if (left <= 0) return { text: `${action.now} now`, urgent: true, overdue: true };
  return { text: `${action.soon} in ${formatCountdown(left)}`, urgent: left < MINUTE, overdue: false };
}
