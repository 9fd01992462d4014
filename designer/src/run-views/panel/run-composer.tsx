import { TERMINAL_RUN_STATUSES } from "@waddle/protocol";
import { useEffect, useId, useMemo, useRef, type ReactElement } from "react";
import { useDocument, useEditor, useServer } from "../../editor/editor-context.js";
import { getIsDirty } from "../../store/document-store.js";
import { useRunStore } from "../use-run-store.js";
import { getModelLabel } from "./get-model-label.js";
import { cancelShownRun, startRunFromPanel } from "../run-actions.js";
import { getPanelRunTarget, getRunPanelStore, useRunPanel } from "./run-panel-store.js";
import { RunTargetPicker } from "./run-target-picker.js";
import { RunModelWarning } from "./run-model-warning.js";
import { OfflineModelNotice } from "./offline-model-notice.js";
import { useCredentialsCheck } from "./use-credentials-check.js";
import { useDenied } from "../../store/me-store.js";

/** Queries to offer: the agent's sample queries, else the last few queries its runs were given. */
function useOfferedQueries(): string[] {
  const samples = useDocument((state) => state.spec.sampleQueries);
  const runs = useRunStore((state) => state.runs);
  return useMemo(() => {
    if (samples.length > 0) return samples.slice(0, 6);
    return [...new Set(runs.map((run) => run.query))].slice(0, 3);
  }, [samples, runs]);
}

/**
 * Starts a run: which model runs it, the query (with the agent's sample queries offered), Run (the saved
 * version), Save and run when the document has unsaved changes, and Cancel while the shown run is live.
 */
export function RunComposer(): ReactElement {
  const editor = useEditor();
  const queryId = useId();
  const agentId = useDocument((state) => state.agentId);
  const query = useRunPanel((state) => (state.queryAgentId === agentId ? state.query : ""));
  // a picked channel or version runs as it is: Save and run (which runs the save) is for the latest save
  const onLatest = useRunPanel((state) => getPanelRunTarget(state, agentId).kind === "latest");
  const version = useDocument((state) => state.baseVersion);
  const dirty = useDocument(getIsDirty);
  const llm = useDocument((state) => state.spec.llm);
  const serverOffline = useServer((state) => state.health?.offline ?? false);
  const saving = useServer((state) => state.busy === "saving");
  const status = useRunStore((state) =>
    state.mode === "live" ? (state.status ?? state.view?.status ?? null) : null,
  );
  const offered = useOfferedQueries();
  const queryBox = useRef<HTMLTextAreaElement>(null);
  const focusQuery = useRunPanel((state) => state.focusQuery);
  // the Run control opens the panel to type a query (a route or a history pick does not)
  useEffect(() => {
    if (!focusQuery) return;
    queryBox.current?.focus();
    getRunPanelStore(editor).getState().set({ focusQuery: false });
  }, [focusQuery, editor]);
  const live = status !== null && !TERMINAL_RUN_STATUSES.has(status);
  const check = useCredentialsCheck();
  // The agent's own model cannot be used here: Run waits for a fix, or for the offline model as a choice.
  const blocked = check !== null && !check.usable && !check.offlineByChoice;
  const label = check
    ? {
        text: blocked ? `${check.model} (not usable here yet)` : check.model,
        title: blocked ? "See below for what is missing." : getModelLabel({ llm, serverOffline }).title,
        offline: check.offlineByChoice,
      }
    : getModelLabel({ llm, serverOffline });
  const setQuery = (next: string) =>
    getRunPanelStore(editor).getState().set({ query: next, queryAgentId: agentId });
  const start = (save: boolean, offline = false) =>
    void startRunFromPanel(editor, { save, ...(offline ? { offline: true } : {}) });
  // a role that may not start runs (or save, or cancel) sees those buttons off, with the reason
  const startDenied = useDenied("runs:start");
  const saveDenied = useDenied("agents:write") ?? startDenied;
  const cancelDenied = useDenied("runs:cancel");
  const canStart = agentId !== null && query.trim() !== "" && !saving && !blocked && startDenied === null;

  return (
    <form
      className="run-composer"
      aria-label="Start a run"
      onSubmit={(event) => {
        event.preventDefault();
        if (canStart) start(false);
      }}
    >
      <RunTargetPicker what="run" />
      <div
        className={`run-model${label.offline ? " is-offline" : ""}`}
        title={label.title}
        data-testid="run-model"
        data-checked={check !== null}
      >
        Runs on <span className="run-model-name">{label.text}</span>
      </div>
      {label.offline ? <OfflineModelNotice agentId={agentId} /> : null}
      {check ? <RunModelWarning check={check} /> : null}
      <div className="field">
        <label className="field-label" htmlFor={queryId}>
          Query
        </label>
        <textarea
          id={queryId}
          className="input"
          rows={3}
          value={query}
          placeholder="Ask the agent something… (Ctrl+Enter runs)"
          data-testid="run-query"
          disabled={startDenied !== null}
          title={startDenied ?? undefined}
          ref={queryBox}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              if (canStart) start(false);
              else if (agentId === null && query.trim() && saveDenied === null) start(true);
            }
          }}
        />
      </div>
      {offered.length > 0 ? (
        <div className="sample-queries" role="group" aria-label="Sample queries">
          {offered.map((sample) => (
            <button
              key={sample}
              type="button"
              className="sample-query"
              title={startDenied ?? `Use: ${sample}`}
              data-testid="sample-query"
              disabled={startDenied !== null}
              onClick={() => setQuery(sample)}
            >
              {sample}
            </button>
          ))}
        </div>
      ) : null}
      {startDenied !== null ? (
        <p className="run-dirty-note" data-testid="run-denied-note">
          {startDenied}
        </p>
      ) : agentId === null ? (
        <p className="run-dirty-note" data-testid="run-unsaved-note">
          This agent is not saved yet: a run starts from a saved version.
        </p>
      ) : dirty ? (
        <p className="run-dirty-note" data-testid="run-unsaved-note">
          {onLatest
            ? `Unsaved changes: Run starts the saved version ${version === null ? "" : `v${version}`}; Save and run saves them first.`
            : "Unsaved changes: Run starts the version picked above, without them."}
        </p>
      ) : null}
      <div className="run-actions">
        {(dirty && onLatest) || agentId === null ? (
          <button
            type="button"
            className="btn btn-primary"
            data-testid="run-save-and-run"
            disabled={query.trim() === "" || saving || blocked || saveDenied !== null}
            title={saveDenied ?? undefined}
            onClick={() => start(true)}
          >
            Save and run
          </button>
        ) : null}
        <button
          type="submit"
          className={`btn${(dirty && onLatest) || agentId === null ? "" : " btn-primary"}`}
          data-testid="run-start"
          disabled={!canStart}
          title={
            startDenied !== null
              ? startDenied
              : agentId === null
                ? "Save the agent first"
                : blocked
                  ? "The agent's model cannot be used here: fix it above, or run on the offline model instead"
                  : onLatest
                    ? `Run version ${version ?? ""} with this query`
                    : "Run the version picked above with this query"
          }
        >
          {dirty && onLatest && agentId !== null ? `Run saved v${version ?? ""}` : "Run"}
        </button>
        {blocked ? (
          <button
            type="button"
            className="btn"
            data-testid="run-offline"
            disabled={query.trim() === "" || saving || startDenied !== null}
            title={
              startDenied ?? "Runs this once on the embedded offline model; the agent keeps its own model"
            }
            onClick={() => start(dirty || agentId === null, true)}
          >
            Run on the offline model instead
          </button>
        ) : null}
        <button
          type="button"
          className="btn"
          data-testid="run-cancel"
          disabled={!live || cancelDenied !== null}
          title={cancelDenied ?? undefined}
          onClick={() => void cancelShownRun(editor)}
        >
          Cancel run
        </button>
      </div>
    </form>
  );
}
