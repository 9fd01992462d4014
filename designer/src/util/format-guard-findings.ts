import type { GuardFinding } from "@waddle/protocol";

/** "2 email, 1 card": what a guard found, by kind and count (never the text), in the order found. */
export function formatGuardFindings(findings: readonly GuardFinding[]): string {
  return findings.map((finding) => `${finding.count} ${finding.kind}`).join(", ");
}

/** Findings added up by kind, first-seen order kept: two results with one email each are "2 email". */
export function addGuardFindings(
  total: readonly GuardFinding[],
  more: readonly GuardFinding[],
): GuardFinding[] {
  const sums = new Map(total.map((finding) => [finding.kind, finding.count]));
  for (const finding of more) sums.set(finding.kind, (sums.get(finding.kind) ?? 0) + finding.count);
  return [...sums].map(([kind, count]) => ({ kind, count }));
}
