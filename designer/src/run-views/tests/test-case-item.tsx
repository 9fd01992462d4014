import type { TestCase, TestCaseResult } from "@waddle/protocol";
import { useDenied } from "../../store/me-store.js";
import { useState, type ReactElement } from "react";
import { formatCost, formatCount, formatDuration } from "../../util/format-metrics.js";
import { describeTestFailure } from "./describe-test-failure.js";
import { readExpectText } from "./read-expect-text.js";
import { summarizeExpect } from "./summarize-expect.js";

const STATUS_WORDS: Record<TestCaseResult["status"], string> = {
  queued: "Queued",
  running: "Running",
  passed: "Passed",
  failed: "Failed",
  skipped: "Skipped",
};

/**
 * One case of the suite: its name, query and what it expects, with the shown test run's result for it
 * (the failed checks in words, with expected and actual), and Run (this case alone), Open run, Delete.
 */
export function TestCaseItem(props: {
  testCase: TestCase;
  result: TestCaseResult | undefined;
  busy: boolean;
  onRun(): void;
  onOpenRun(runId: string): void;
  onDelete(): void;
  /** Saves new expectations; resolves false when the server refused them (the tab says why). */
  onSaveExpect(expect: TestCase["expect"]): Promise<boolean>;
}): ReactElement {
  const { testCase, result } = props;
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  // a role that may not write tests reads them: Run, Edit checks and Delete are off, with the reason
  const denied = useDenied("tests:write");
  const expect = summarizeExpect(testCase.expect);
  return (
    <li className="test-case" data-testid="test-case-item" data-case-id={testCase.id}>
      <div className="test-case-head">
        <span className="test-case-name">{testCase.name}</span>
        <span className="test-case-llm" title="Where the model's replies come from">
          {testCase.llm === "recorded" ? "recorded model" : "live model"}
          {testCase.mocks.length > 0 ? ` · ${testCase.mocks.length} mocks` : " · live tools"}
        </span>
      </div>
      {/* a case saved from a run is named after its query: said once */}
      {testCase.query.trim() !== testCase.name.trim() ? (
        <p className="test-case-query" title={testCase.query}>
          {testCase.query}
        </p>
      ) : null}
      <p className="test-case-expect">
        <span className="test-case-expect-label">Expects</span>{" "}
        {expect.length > 0 ? expect.join(" · ") : "nothing beyond its mocks being matched"}
      </p>
      {editing ? (
        <ExpectEditor
          initial={testCase.expect}
          onCancel={() => setEditing(false)}
          onSave={async (expect) => {
            if (await props.onSaveExpect(expect)) setEditing(false);
          }}
        />
      ) : null}
      {result ? <TestResult result={result} onOpenRun={props.onOpenRun} /> : null}
      <div className="test-case-actions">
        <button
          type="button"
          className="btn btn-small"
          data-testid="test-case-run"
          disabled={props.busy || denied !== null}
          title={denied ?? "Run this case alone on the chosen version"}
          onClick={props.onRun}
        >
          Run this case
        </button>
        {editing ? null : (
          <button
            type="button"
            className="btn btn-ghost btn-small"
            data-testid="test-case-edit"
            disabled={denied !== null}
            title={denied ?? "Edit what this case checks, as JSON"}
            onClick={() => setEditing(true)}
          >
            Edit checks
          </button>
        )}
        {confirming ? (
          <>
            <button
              type="button"
              className="btn btn-small btn-danger"
              data-testid="test-case-delete-confirm"
              onClick={() => {
                setConfirming(false);
                props.onDelete();
              }}
            >
              Delete “{testCase.name}”
            </button>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn btn-ghost btn-small"
            data-testid="test-case-delete"
            disabled={denied !== null}
            title={denied ?? "Remove this case from the suite"}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        )}
      </div>
    </li>
  );
}

/** The case's `expect` as JSON, checked with the protocol's schema before it is saved. */
function ExpectEditor(props: {
  initial: TestCase["expect"];
  onSave(expect: TestCase["expect"]): Promise<void>;
  onCancel(): void;
}): ReactElement {
  const [text, setText] = useState(() => JSON.stringify(props.initial, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  return (
    <form
      className="test-expect-editor"
      aria-label="Edit the checks"
      onSubmit={(event) => {
        event.preventDefault();
        const read = readExpectText(text);
        if (!read.ok) return setProblem(read.message);
        setProblem(null);
        setSaving(true);
        void props.onSave(read.expect).finally(() => setSaving(false));
      }}
    >
      <label className="field">
        <span className="field-label">
          Checks (<code>status</code>, <code>trajectory</code>, <code>answer</code>, <code>budget</code>)
        </span>
        <textarea
          className="input test-expect-json"
          data-testid="test-case-expect-json"
          spellCheck={false}
          rows={Math.min(16, text.split("\n").length + 1)}
          value={text}
          aria-invalid={problem !== null}
          onChange={(event) => {
            setText(event.target.value);
            setProblem(null);
          }}
        />
      </label>
      {problem ? (
        <p className="field-error" role="alert" data-testid="test-case-expect-error">
          {problem}
        </p>
      ) : null}
      <div className="test-case-actions">
        <button
          type="submit"
          className="btn btn-primary btn-small"
          data-testid="test-case-expect-save"
          disabled={saving}
        >
          {saving ? "Saving…" : "Save checks"}
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function TestResult(props: { result: TestCaseResult; onOpenRun(runId: string): void }): ReactElement {
  const { result } = props;
  const ended = result.status !== "queued" && result.status !== "running";
  return (
    <div className={`test-result is-${result.status}`} data-testid="test-result" data-status={result.status}>
      <div className="test-result-head">
        <span className={`test-status-chip is-${result.status}`}>{STATUS_WORDS[result.status]}</span>
        {ended && result.runId ? (
          <span className="test-result-metrics">
            {formatCount(result.llmCalls)} model calls · {formatCount(result.tokens)} tokens ·{" "}
            {formatCost(result.costUsd)} · {formatDuration(result.durationMs)}
          </span>
        ) : null}
        {result.runId ? (
          <button
            type="button"
            className="link-btn test-result-open"
            data-testid="test-result-open"
            title="Show this case's run on the canvas"
            onClick={() => props.onOpenRun(result.runId!)}
          >
            Open run
          </button>
        ) : null}
      </div>
      {result.failures.length > 0 ? (
        <ul className="test-failures" aria-label="Failed checks">
          {result.failures.map((failure, index) => {
            const words = describeTestFailure(failure);
            return (
              <li key={index} className="test-failure" data-testid="test-failure" data-check={words.check}>
                <p className="test-failure-sentence">{words.sentence}</p>
                <dl className="test-failure-values">
                  <dt>{words.expectedLabel}</dt>
                  <dd>{words.expected}</dd>
                  <dt>{words.actualLabel}</dt>
                  <dd>{words.actual}</dd>
                </dl>
              </li>
            );
          })}
        </ul>
      ) : null}
      {result.skippedChecks?.map((skipped) => (
        <p key={skipped.check} className="test-skipped-check">
          {skipped.check} not checked: {skipped.reason}
        </p>
      ))}
    </div>
  );
}
