import type { z } from "zod";

/** `path: message` pairs, at most five, for repair messages. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`);
  return issues.length > 5 ? `${shown.join("; ")}; and ${issues.length - 5} more` : shown.join("; ");
}
