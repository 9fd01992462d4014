import type { SpecIssue } from "@waddle/protocol";
import { useMemo, type ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { useValidation } from "../editor/use-validation.js";
import { revealIssue } from "../commands/reveal-issue.js";
import { applyIssueFix } from "../commands/apply-issue-fix.js";
import { Icon } from "../components/icon.js";
import { DESIGN_PERMISSION, useDenied } from "../store/me-store.js";

function describeTarget(issue: SpecIssue): string {
  const target = issue.target;
  if (!target) return "agent";
  if (target.kind === "tool" && target.id) return `tool ${target.id}`;
  if (target.kind === "edge" && target.id) return `edge ${target.id}`;
  if (target.kind === "group" && target.id) return `group ${target.id}`;
  return target.kind;
}

/** Every validation issue, errors first; clicking one selects and reveals what it is about. */
export function IssuesPanel(): ReactElement {
  const editor = useEditor();
  const { issues } = useValidation();
  const fixDenied = useDenied(DESIGN_PERMISSION);
  const sorted = useMemo(
    () => [...issues].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1)),
    [issues],
  );
  if (sorted.length === 0) {
    return (
      <div className="panel-body" data-testid="issues-panel">
        <div className="all-clear">
          <Icon name="check" size={20} />
          <p>No issues. The agent is valid and can be saved.</p>
        </div>
      </div>
    );
  }
  return (
    <div className="panel-body" data-testid="issues-panel">
      <p className="field-hint">
        Validated live on every edit; this server&apos;s settings are checked too. Warnings never stop a run
        from starting. Click an issue to select what it is about.
      </p>
      <ul className="issue-list" role="list">
        {sorted.map((issue, index) => (
          <li key={`${issue.path}:${issue.code}:${index}`} className="issue-item">
            <button
              type="button"
              className={`issue-row is-${issue.severity}`}
              data-testid={`issue-row-${index}`}
              data-target={describeTarget(issue)}
              onClick={() => revealIssue(editor, issue)}
            >
              <Icon name={issue.severity === "error" ? "alert" : "info"} size={16} />
              <span className="issue-text">
                <span className="issue-message">{issue.message}</span>
                <span className="issue-where">
                  {describeTarget(issue)} · <code>{issue.path}</code>
                </span>
              </span>
            </button>
            {issue.fix ? (
              <button
                type="button"
                className="btn btn-small issue-fix"
                data-testid={`issue-fix-${index}`}
                title={fixDenied ?? issue.fix.label}
                disabled={fixDenied !== null}
                onClick={() => applyIssueFix(editor, issue.fix!)}
              >
                {issue.fix.label}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
