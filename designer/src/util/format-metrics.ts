/**
 * Short, stable labels for run metrics (history rows, replay position, comparison deltas). Pure: the
 * locale never enters, so the same run reads the same everywhere and in tests.
 */

/** `850 ms`, `4.2 s`, `3 m 05 s`, `1 h 02 m`; `—` when unknown. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) {
    const seconds = ms / 1000;
    return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  }
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 3600) {
    const minutes = Math.floor(totalSeconds / 60);
    return `${minutes} m ${String(totalSeconds % 60).padStart(2, "0")} s`;
  }
  const totalMinutes = Math.round(totalSeconds / 60);
  return `${Math.floor(totalMinutes / 60)} h ${String(totalMinutes % 60).padStart(2, "0")} m`;
}

/** A replay clock: `0:04.2`, `1:02.0`, `1:02:03`. */
export function formatClock(ms: number): string {
  const safe = Number.isFinite(ms) && ms > 0 ? ms : 0;
  const tenths = Math.floor(safe / 100);
  const seconds = Math.floor(tenths / 10);
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const secondsText = `${String(seconds % 60).padStart(2, "0")}.${tenths % 10}`;
  if (hours > 0)
    return `${hours}:${String(minutes % 60).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
  return `${minutes}:${secondsText}`;
}

/** `$0`, `$0.0004`, `$0.012`, `$1.25`: enough digits to tell cheap runs apart. */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return "—";
  const abs = Math.abs(usd);
  const sign = usd < 0 ? "-" : "";
  if (abs === 0) return "$0";
  if (abs < 0.0001) return `${sign}<$0.0001`;
  if (abs < 0.01) return `${sign}$${abs.toFixed(4)}`;
  if (abs < 1) return `${sign}$${abs.toFixed(3)}`;
  return `${sign}$${abs.toFixed(2)}`;
}

/** `980`, `12.4k`, `3.1M`. */
export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const abs = Math.abs(value);
  const sign = value < 0 ? "-" : "";
  if (abs < 1000) return `${sign}${Math.round(abs)}`;
  if (abs < 1_000_000) return `${sign}${trimZero((abs / 1000).toFixed(abs < 10_000 ? 1 : 0))}k`;
  return `${sign}${trimZero((abs / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.endsWith(".0") ? text.slice(0, -2) : text;
}

export type DeltaTone = "better" | "worse" | "same";

/** A right-minus-left difference as text with its sign, and whether it is better (lower) or worse. */
export interface FormattedDelta {
  text: string;
  tone: DeltaTone;
}

export type MetricKind = "count" | "cost" | "duration";

/** `+3`, `-1.2k`, `+$0.004`, `-850 ms`, `±0`: for every metric here, lower is better. */
export function formatDelta(delta: number, kind: MetricKind): FormattedDelta {
  if (!Number.isFinite(delta) || Math.abs(delta) < (kind === "cost" ? 1e-9 : 0.5))
    return { text: "±0", tone: "same" };
  const sign = delta > 0 ? "+" : "-";
  const abs = Math.abs(delta);
  const body =
    kind === "cost" ? formatCost(abs) : kind === "duration" ? formatDuration(abs) : formatCount(abs);
  return { text: `${sign}${body}`, tone: delta > 0 ? "worse" : "better" };
}
