/** "just now", "5 min ago", "3 h ago", or the date, for list metadata. */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return "";
  const seconds = Math.round((now - time) / 1000);
  if (seconds < 45) return "just now";
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(time).toLocaleDateString();
}

/** `14:05:09` today, else `Mar 3, 14:05`, from an ISO time; "" when absent. Uses UTC when asked (tests). */
export function formatStartTime(
  iso: string | null | undefined,
  options: { now?: number; utc?: boolean } = {},
): string {
  if (!iso) return "";
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return "";
  const date = new Date(time);
  const now = new Date(options.now ?? Date.now());
  const get = options.utc
    ? {
        y: date.getUTCFullYear(),
        mo: date.getUTCMonth(),
        d: date.getUTCDate(),
        h: date.getUTCHours(),
        mi: date.getUTCMinutes(),
        s: date.getUTCSeconds(),
      }
    : {
        y: date.getFullYear(),
        mo: date.getMonth(),
        d: date.getDate(),
        h: date.getHours(),
        mi: date.getMinutes(),
        s: date.getSeconds(),
      };
  const today = options.utc
    ? now.getUTCFullYear() === get.y && now.getUTCMonth() === get.mo && now.getUTCDate() === get.d
    : now.getFullYear() === get.y && now.getMonth() === get.mo && now.getDate() === get.d;
  const pad = (value: number) => String(value).padStart(2, "0");
  if (today) return `${pad(get.h)}:${pad(get.mi)}:${pad(get.s)}`;
  return `${MONTHS[get.mo]} ${get.d}, ${pad(get.h)}:${pad(get.mi)}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
