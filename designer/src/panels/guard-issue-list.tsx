import type { SpecIssue } from "@waddle/protocol";
import type { ReactElement } from "react";

/** Validation issues shown at the field they concern (message, then the path it names). */
export function IssueList({ issues }: { issues: readonly SpecIssue[] }): ReactElement | null {
  if (issues.length === 0) return null;
  return (
    <ul className="issue-list compact" data-testid="guard-issues">
      {issues.map((issue) => (
        <li key={`${issue.path} ${issue.code}`} className={`issue-row is-${issue.severity}`}>
          <span className="issue-message">{issue.message}</span> <code>{issue.path}</code>
        </li>
      ))}
    </ul>
  );
}
