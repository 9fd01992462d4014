/**
 * Milliseconds since the epoch with sub-millisecond precision. Every process derives it from the same
 * system clock at its start, so two processes on one machine agree to well under a millisecond (the
 * benchmark measures the remaining offset anyway).
 */
export const preciseNow = (): number => performance.timeOrigin + performance.now();
