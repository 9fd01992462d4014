import type { ReactElement } from "react";
import type { ReleaseTestsView } from "../releases/get-release-tests-view.js";

/**
 * The suite on the version being released: none / running / passed / failed, with the failing cases and
 * why each failed. `Run again` runs it without releasing (off while it runs or a release waits).
 */
export function ReleaseTestsSection(props: {
  view: ReleaseTestsView;
  error: string | null;
  canRunAgain: boolean;
  runAgainDenied: string | null;
  onRunAgain(): void;
}): ReactElement {
  const { view } = props;
  return (
    <section className="release-section" aria-labelledby="release-tests-title">
      <h3 id="release-tests-title" className="release-section-title">
        Tests
      </h3>
      <div
        className={`release-tests is-${view.status}`}
        data-testid="release-tests-status"
        data-status={view.status}
      >
        <div className="release-tests-head">
          <span className={`test-status-chip is-${view.status}`}>
            {view.status === "none" ? "not run" : view.status}
          </span>
          <span className="release-tests-text">{view.text}</span>
          {view.status === "passed" || view.status === "failed" ? (
            <button
              type="button"
              className="btn btn-small"
              data-testid="release-tests-rerun"
              disabled={!props.canRunAgain || props.runAgainDenied !== null}
              title={props.runAgainDenied ?? "Run the suite on this version again, without releasing"}
              onClick={props.onRunAgain}
            >
              Run again
            </button>
          ) : null}
        </div>
        {view.note ? <p className="release-note">{view.note}</p> : null}
        {view.failing.length > 0 ? (
          <ul className="release-failing" aria-label="Failing cases">
            {view.failing.map((entry) => (
              <li key={entry.caseId} data-testid="release-failing-case" data-case-id={entry.caseId}>
                <span className="release-failing-name">{entry.name}</span>
                <span className="release-failing-status">{entry.status}</span>
                {entry.reasons.length > 0 ? (
                  <ul className="release-failing-reasons">
                    {entry.reasons.map((reason, index) => (
                      <li key={index}>{reason}</li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {props.error ? <p className="field-error">{props.error}</p> : null}
      </div>
    </section>
  );
}
