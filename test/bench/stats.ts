/** Order statistics of a sample, in the sample's unit. */
export interface Summary {
  n: number;
  min: number;
  median: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * The `p`-th percentile (0–100) of values sorted ascending, interpolating linearly between the two
 * nearest ranks (the usual "type 7" definition, so the median of [1, 2, 3, 4] is 2.5).
 */
export function getPercentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError("getPercentile needs at least one value.");
  if (!(p >= 0 && p <= 100)) throw new RangeError(`A percentile lies in [0, 100], not ${p}.`);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lower = sorted[low]!;
  return lower + (sorted[high]! - lower) * (rank - low);
}

/** Min, median, p90, p99, max and mean of a non-empty sample (the input is not modified). */
export function getSummary(values: readonly number[]): Summary {
  if (values.length === 0) throw new RangeError("getSummary needs at least one value.");
  const sorted = [...values].sort((a, b) => a - b);
  let total = 0;
  for (const value of sorted) total += value;
  return {
    n: sorted.length,
    min: sorted[0]!,
    median: getPercentile(sorted, 50),
    p90: getPercentile(sorted, 90),
    p99: getPercentile(sorted, 99),
    max: sorted[sorted.length - 1]!,
    mean: total / sorted.length,
  };
}

/** Interquartile range relative to the median: a spread figure that ignores a few noisy outliers. */
export function getRelativeIqr(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const median = getPercentile(sorted, 50);
  if (median === 0) return 0;
  return (getPercentile(sorted, 75) - getPercentile(sorted, 25)) / median;
}
