import type { ReactElement } from "react";
import { WhoAmI } from "../access/whoami.js";
import { useDocument, useEditor, useServer } from "../editor/editor-context.js";
import { useValidation } from "../editor/use-validation.js";
import { RunControl } from "../run-views/run-control.js";
import { getIsDirty } from "../store/document-store.js";
import { CommandButton } from "../components/command-button.js";
import { Icon } from "../components/icon.js";
import { ChannelBadges } from "../release-views/channel-badges.js";
import { SettingsMenu } from "./settings-menu.js";
import { InboxButton } from "../inbox-views/inbox-button.js";

function SaveStatus(): ReactElement {
  const dirty = useDocument(getIsDirty);
  const agentId = useDocument((state) => state.agentId);
  const version = useDocument((state) => state.baseVersion);
  const busy = useServer((state) => state.busy);
  const text =
    busy === "saving"
      ? "Saving…"
      : agentId === null
        ? "Not saved yet"
        : dirty
          ? "Unsaved changes"
          : `Saved · v${version}`;
  return (
    <span
      className={`save-status${dirty ? " is-dirty" : " is-clean"}`}
      data-testid="save-status"
      data-dirty={dirty}
      title={dirty ? "Changes since the last save (Ctrl+S saves)" : "Everything is saved"}
    >
      <span className="status-dot" aria-hidden />
      {text}
    </span>
  );
}

/** "Valid", "Valid · 3 warnings" (warnings never make an agent invalid), or "2 errors · 1 warning". */
export function getIssuesChipText(index: { errors: number; warnings: number }): string {
  const warnings = `${index.warnings} warning${index.warnings === 1 ? "" : "s"}`;
  if (index.errors === 0) return index.warnings === 0 ? "Valid" : `Valid · ${warnings}`;
  return `${index.errors} error${index.errors === 1 ? "" : "s"} · ${warnings}`;
}

function IssuesChip(): ReactElement {
  const editor = useEditor();
  const { index } = useValidation();
  const total = index.errors + index.warnings;
  const tone = index.errors > 0 ? "is-error" : index.warnings > 0 ? "is-warning" : "is-ok";
  return (
    <button
      type="button"
      className={`issues-chip ${tone}`}
      data-testid="issues-count"
      data-errors={index.errors}
      data-warnings={index.warnings}
      title={`${total === 0 ? "Valid: no validation issues" : "Validation issues"} (click to list them)`}
      onClick={() => editor.ui.getState().set({ rightTab: "issues" })}
    >
      <Icon name={total === 0 ? "check" : "alert"} size={14} />
      {/* "Valid" alone may go below 1440 px (header.css): the green check and the tooltip say it */}
      <span className={`issues-chip-label${total === 0 ? " is-quiet" : ""}`}>{getIssuesChipText(index)}</span>
    </button>
  );
}

/** The top bar: the agent, its save state, and the main commands. */
export function AppHeader(): ReactElement {
  const name = useDocument((state) => state.spec.name);
  const offline = useServer((state) => state.health?.offline);
  return (
    <header className="app-header">
      <div className="brand" title="Waddle: design, run and watch ReAct agents">
        <span className="brand-mark" aria-hidden>
          W
        </span>
        <span className="brand-name">Waddle</span>
      </div>
      <div className="doc-title">
        <span className="doc-name" data-testid="doc-name" title={name}>
          {name}
        </span>
        <SaveStatus />
        <ChannelBadges />
        {offline ? (
          <span
            className="badge badge-muted doc-offline"
            title="The server has no OPENAI_API_KEY: agents without a stored credential run on the embedded deterministic offline model. The run panel says which model each agent gets."
          >
            <Icon name="info" size={12} />
            <span className="badge-label">no default key</span>
          </span>
        ) : null}
      </div>
      <div className="toolbar" role="toolbar" aria-label="Editor commands">
        <CommandButton command="undo" icon="undo" />
        <CommandButton command="redo" icon="redo" />
        <span className="toolbar-gap" />
        <CommandButton command="auto-layout" icon="layout" />
        <CommandButton command="fit-view" icon="fit" />
        <span className="toolbar-gap" />
        <CommandButton command="import" icon="upload" showLabel collapsible />
        <CommandButton command="export" icon="download" showLabel collapsible />
        <CommandButton command="versions" icon="history" showLabel collapsible />
        <CommandButton command="release" icon="flag" showLabel collapsible testId="release-open" />
        <CommandButton command="use-agent" icon="link" showLabel testId="use-agent" />
        <CommandButton command="publish" icon="globe" showLabel collapsible testId="publish-open" />
        <span className="toolbar-gap" />
        <IssuesChip />
        <CommandButton command="save" icon="save" showLabel variant="primary" testId="save-button" />
        <RunControl />
        <span className="toolbar-gap" />
        <InboxButton />
        <SettingsMenu />
        <WhoAmI />
      </div>
    </header>
  );
}
