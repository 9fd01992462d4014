import { useEffect, useState, type ReactElement } from "react";
import { useDocument, useEditor } from "../../editor/editor-context.js";
import { getRunPanelStore } from "../panel/run-panel-store.js";
import { useRunStore } from "../use-run-store.js";
import { TestCaseItem } from "./test-case-item.js";
import { useDenied } from "../../store/me-store.js";
import { describeTestRun, TestsCompareView, TestsComparePicker } from "./tests-compare-view.js";
import { getTestsStore, useTests } from "./tests-store.js";
import { useTestRunUpdates } from "./use-test-run-updates.js";

/**
 * The Tests tab: the agent's cases (saved from runs with **Save as test**), a version to run them on, Run
 * all or one case, each case's result live (`test_run_updated`) with its failed checks in words and its
 * run one click from the canvas, and two test runs compared.
 */
export function TestsTab(): ReactElement {
  const editor = useEditor();
  const agentId = useRunStore((state) => state.agentId);
  const store = getTestsStore(editor);
  const cases = useTests((state) => state.cases);
  const loading = useTests((state) => state.loading);
  const versions = useTests((state) => state.versions);
  const testRuns = useTests((state) => state.testRuns);
  const shown = useTests((state) => (state.shownId ? (state.records[state.shownId] ?? null) : null));
  const shownId = useTests((state) => state.shownId);
  const compare = useTests((state) => state.compare);
  const records = useTests((state) => state.records);
  const error = useTests((state) => state.error);
  const runDenied = useDenied("tests:write");
  const savedVersion = useDocument((state) => state.baseVersion);
  const [version, setVersion] = useState<string>("");
  useTestRunUpdates(agentId);
  useEffect(() => {
    if (agentId) void store.getState().load(agentId);
  }, [agentId, store, savedVersion]);

  if (agentId === null)
    return (
      <section className="tests-panel" data-testid="tests-panel" aria-label="Tests">
        <p className="empty-note">Save the agent to test it; its test cases are listed here.</p>
      </section>
    );

  const latest = versions.reduce((max, entry) => Math.max(max, entry.version), 0);
  const chosen = version ? Number(version) : latest || undefined;
  const running = shown?.status === "running";
  const openRun = (runId: string) => {
    getRunPanelStore(editor).getState().set({ open: true, tab: "run" });
    const runs = editor.runs.getState();
    if (runs.mode === "compare") runs.closeCompare();
    void runs.openRun(runId);
  };
  const done = shown ? shown.cases.filter((c) => c.status !== "queued" && c.status !== "running").length : 0;

  return (
    <section className="tests-panel" data-testid="tests-panel" aria-label="Tests">
      <p className="explain">
        Each case replays a saved run: its recorded tool results stand in for the tools, and the checks say
        what the agent must still do. Save a run as a test from the Run tab.
      </p>
      <div className="tests-toolbar">
        <label className="field tests-version">
          <span className="field-label">Version</span>
          <select
            className="input"
            data-testid="tests-version"
            value={chosen === undefined ? "" : String(chosen)}
            onChange={(event) => setVersion(event.target.value)}
          >
            {[...versions]
              .sort((left, right) => right.version - left.version)
              .map((entry) => (
                <option key={entry.version} value={entry.version}>
                  v{entry.version}
                  {entry.version === latest ? " (latest)" : ""}
                  {entry.message ? ` · ${entry.message.slice(0, 40)}` : ""}
                </option>
              ))}
          </select>
        </label>
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="tests-run"
          disabled={cases.length === 0 || running || runDenied !== null}
          title={
            runDenied ??
            (cases.length === 0 ? "Save a run as a test first" : "Run every case on this version")
          }
          onClick={() => void store.getState().runSuite({ agentVersion: chosen })}
        >
          {running ? "Running…" : cases.length === 1 ? "Run 1 case" : `Run all ${cases.length} cases`}
        </button>
      </div>
      {error ? (
        <p className="run-notice tone-error" role="alert" data-testid="tests-error">
          <span>{error}</span>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-label="Dismiss"
            onClick={() => store.getState().dismissError()}
          >
            ×
          </button>
        </p>
      ) : null}
      {shown ? (
        <div
          className={`tests-summary is-${shown.status}`}
          data-testid="tests-summary"
          data-status={shown.status}
          role="status"
        >
          <strong>
            {shown.status === "running"
              ? `Running on v${shown.agentVersion}: ${done} of ${shown.cases.length} done`
              : `v${shown.agentVersion}: ${shown.status}`}
          </strong>{" "}
          · {shown.totals.passed} passed · {shown.totals.failed} failed
          {shown.totals.skipped ? ` · ${shown.totals.skipped} skipped` : ""}
          {shown.status === "running" ? (
            <progress className="tests-progress" max={shown.cases.length} value={done} />
          ) : null}
        </div>
      ) : null}
      {loading && cases.length === 0 ? (
        <p className="empty-note" role="status">
          Loading the suite…
        </p>
      ) : cases.length === 0 ? (
        <p className="empty-note" data-testid="tests-empty">
          No test cases yet. Open a run that has ended and choose <strong>Save as test</strong>: its tool
          results become mocks and what it did becomes the expectations.
        </p>
      ) : (
        <ul className="test-cases" aria-label="Test cases">
          {cases.map((testCase) => (
            <TestCaseItem
              key={testCase.id}
              testCase={testCase}
              result={shown?.cases.find((result) => result.caseId === testCase.id)}
              busy={running}
              onRun={() => void store.getState().runSuite({ agentVersion: chosen, caseIds: [testCase.id] })}
              onOpenRun={openRun}
              onDelete={() => void store.getState().deleteCase(testCase.id)}
              onSaveExpect={(expect) => store.getState().setExpect(testCase.id, expect)}
            />
          ))}
        </ul>
      )}
      {testRuns.length > 0 ? (
        <div className="tests-history">
          <h3 className="tests-section-title">Test runs ({testRuns.length})</h3>
          <label className="field">
            <span className="field-label">Results shown</span>
            <select
              className="input"
              data-testid="tests-shown"
              value={shownId ?? ""}
              onChange={(event) => void store.getState().show(event.target.value)}
            >
              {testRuns.map((run) => (
                <option key={run.id} value={run.id}>
                  {describeTestRun(run)}
                </option>
              ))}
            </select>
          </label>
          <h3 className="tests-section-title">Compare two test runs</h3>
          {compare && records[compare.a] && records[compare.b] ? (
            <TestsCompareView
              a={records[compare.a]!}
              b={records[compare.b]!}
              onClose={() => store.getState().closeCompare()}
              onOpenRun={openRun}
            />
          ) : compare ? (
            <p className="empty-note" role="status">
              Loading both test runs…
            </p>
          ) : (
            <TestsComparePicker
              testRuns={testRuns}
              onCompare={(a, b) => void store.getState().openCompare(a, b)}
            />
          )}
        </div>
      ) : null}
    </section>
  );
}
