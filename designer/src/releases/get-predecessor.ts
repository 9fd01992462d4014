/** The saved version just before `version` (null: it is the first), what version history compares it with. */
export function getPredecessor(version: number, versions: readonly number[]): number | null {
  const earlier = versions.filter((entry) => entry < version);
  return earlier.length > 0 ? Math.max(...earlier) : null;
}
