import type { ReactElement } from "react";
import { useDocument } from "../../editor/editor-context.js";
import { getIsDirty } from "../../store/document-store.js";
import type { RunView } from "../../runs/fold/run-view.js";
import { useRunStore } from "../use-run-store.js";
import { getModelLabel } from "./get-model-label.js";
import { getShownRunQuery } from "./get-shown-run-query.js";
import { getVersionNote } from "./get-version-note.js";
import { GuardShield } from "../canvas/guard-shield.js";

/** The shown run's status (`run-status`, its text the RunStatus). */
export function RunStatusChip({ status }: { status: RunView["status"] }): ReactElement {
  return (
    <span
      className={`run-status status-${status}`}
      data-testid="run-status"
      data-status={status}
      role="status"
    >
      {status}
    </span>
  );
}

/** The note saying how the open agent differs from the version that ran, if it does. */
export function useVersionNote(): string | null {
  const agentId = useRunStore((state) => state.view?.agentId ?? state.spec?.id ?? null);
  const agentVersion = useRunStore((state) => state.view?.agentVersion ?? null);
  const documentAgentId = useDocument((state) => state.agentId);
  const baseVersion = useDocument((state) => state.baseVersion);
  const dirty = useDocument(getIsDirty);
  return getVersionNote({
    run: { agentId, agentVersion },
    document: { agentId: documentAgentId, baseVersion, dirty },
  });
}

/** The query the shown run was given (`getShownRunQuery`). */
export function useShownRunQuery(view: Pick<RunView, "runId" | "query"> | null): string {
  const run = useRunStore((state) => state.run);
  return getShownRunQuery(run, view);
}

/** Which run is shown: status, version, model, query, and a note when the open agent has changed since. */
export function RunSummary({ view }: { view: RunView }): ReactElement {
  const query = useShownRunQuery(view);
  const spec = useRunStore((state) => state.spec);
  const note = useVersionNote();
  const status = useRunStore((state) => state.status) ?? view.status;
  const offlineChosen = useRunStore((state) => state.run?.offlineChosen === true);
  const model = spec ? getModelLabel({ llm: spec.llm, ran: view.llm, offlineChosen }) : null;
  return (
    <div
      className="run-summary"
      data-testid="run-summary"
      data-run-id={view.runId}
      data-last-seq={view.lastSeq}
      data-timeline-count={view.timeline.length}
    >
      <div className="run-summary-line">
        <RunStatusChip status={status} />
        {view.agentVersion !== null ? <span className="run-muted">v{view.agentVersion}</span> : null}
        {model ? (
          <span className="run-muted" title={model.title} data-testid="run-ran-model">
            {model.text}
          </span>
        ) : null}
        <span className="run-muted" title={view.runId}>
          {view.runId.slice(0, 8)}
        </span>
      </div>
      {query ? (
        <div
          className="run-summary-query"
          data-testid="run-summary-query"
          title="The query this run was given"
        >
          <span className="run-summary-query-label">Query</span> {query}
          <GuardShield marks={view.guards.input} />
        </div>
      ) : null}
      {note ? (
        <p className="run-version-note" data-testid="run-version-note">
          {note}
        </p>
      ) : null}
      {view.error ? (
        <p className="run-notice tone-error" role="alert">
          {view.error.code}: {view.error.message}
        </p>
      ) : null}
    </div>
  );
}
