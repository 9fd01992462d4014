import type { ReactElement } from "react";
import type { IssueSummary } from "../graph/get-issue-index.js";

/** A red (errors) or amber (warnings only) count whose tooltip is the first message. */
export function IssueBadge({ issues, testId }: { issues: IssueSummary; testId?: string }): ReactElement {
  const isError = issues.errors > 0;
  const count = isError ? issues.errors : issues.warnings;
  return (
    <span
      className={`issue-badge ${isError ? "is-error" : "is-warning"}`}
      title={issues.first}
      data-testid={testId}
      aria-label={`${count} ${isError ? "error" : "warning"}${count === 1 ? "" : "s"}: ${issues.first}`}
    >
      {isError ? "!" : "⚠"} {count}
    </span>
  );
}
