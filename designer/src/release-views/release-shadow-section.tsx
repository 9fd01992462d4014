import type { ShadowReport, ShadowReportSummary } from "@waddle/protocol";
import { useCallback, useEffect, useMemo, useState, type ReactElement } from "react";
import { getErrorMessage, isApiError } from "../api/api-error.js";
import { useEditor } from "../editor/editor-context.js";
import { getShadowCaseRow, getShadowSummary } from "../releases/get-shadow-summary.js";
import { formatRelativeTime } from "../util/format-time.js";

/** The newest report of this candidate version, if any (the list is newest first). */
function getLatestReport(reports: readonly ShadowReportSummary[], version: number | null) {
  return reports.find((report) => report.candidateVersion === version) ?? null;
}

function ShadowCases({ report }: { report: ShadowReport }): ReactElement {
  const rows = useMemo(() => report.cases.map(getShadowCaseRow), [report]);
  if (rows.length === 0) return <p className="release-note">No cases.</p>;
  return (
    <table className="shadow-cases" data-testid="release-shadow-cases">
      <thead>
        <tr>
          <th scope="col">Query</th>
          <th scope="col">Tools</th>
          <th scope="col">Baseline answer</th>
          <th scope="col">Candidate answer</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.runId} className={row.sameTools && row.sameAnswer ? "is-same" : "is-different"}>
            <td title={row.query}>{row.query}</td>
            <td>
              {row.path}
              {row.notRecorded > 0 ? ` · ${row.notRecorded} not recorded` : ""}
            </td>
            <td title={row.baselineAnswer}>{row.baselineAnswer}</td>
            <td title={row.candidateAnswer}>{row.candidateAnswer}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The newest shadow comparison of the version being released against the channel's traffic: its totals,
 * its cases on demand, Run shadow comparison, and whether to attach it to the release. A server without
 * shadow routes yet reads as "no report", and says so when asked to run one.
 */
export function ReleaseShadowSection(props: {
  agentId: string;
  version: number | null;
  channel: string;
  attached: string | null;
  onAttach(reportId: string | null): void;
}): ReactElement {
  const { agentId, version, channel, onAttach } = props;
  const editor = useEditor();
  const [reports, setReports] = useState<ShadowReportSummary[] | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [opened, setOpened] = useState<ShadowReport | null>(null);

  const read = useCallback(async () => {
    try {
      setReports(await editor.api.listShadowReports(agentId));
    } catch {
      // no shadow routes on this server (yet), or none readable: the same as no report
      setReports([]);
    }
  }, [agentId, editor]);
  useEffect(() => {
    void read();
  }, [read]);

  const latest = reports ? getLatestReport(reports, version) : null;
  const summary = latest ? getShadowSummary(latest) : null;
  useEffect(() => setOpened(null), [latest?.id]);

  const run = async () => {
    if (version === null) return;
    setRunning(true);
    setError(null);
    try {
      const reportId = await editor.api.startShadow(agentId, { candidate: version, baseline: channel });
      await read();
      onAttach(reportId);
    } catch (caught) {
      setError(
        isApiError(caught, "not_found") && caught.message.includes("/shadow")
          ? "Shadow comparison is not available on this server yet."
          : getErrorMessage(caught),
      );
    } finally {
      setRunning(false);
    }
  };
  const open = async () => {
    if (!latest) return;
    if (opened) return setOpened(null);
    try {
      setOpened(await editor.api.getShadowReport(agentId, latest.id));
    } catch (caught) {
      setError(getErrorMessage(caught));
    }
  };

  return (
    <section className="release-section" aria-labelledby="release-shadow-title">
      <h3 id="release-shadow-title" className="release-section-title">
        Shadow comparison
      </h3>
      <div className="release-shadow" data-testid="release-shadow" data-report-id={latest?.id ?? ""}>
        {reports === null ? (
          <p className="release-note">Reading shadow reports…</p>
        ) : latest && summary ? (
          <>
            <p className="release-shadow-title">
              <strong>{summary.title}</strong>{" "}
              <span className="release-section-meta">
                {latest.createdBy} · {formatRelativeTime(latest.createdAt)}
              </span>
            </p>
            <p className="release-shadow-line">{summary.note ?? summary.line}</p>
            <table className="shadow-figures">
              <thead>
                <tr>
                  <th scope="col" />
                  <th scope="col">{latest.baseline.channel}</th>
                  <th scope="col">v{latest.candidateVersion}</th>
                  <th scope="col">Difference</th>
                </tr>
              </thead>
              <tbody>
                {summary.figures.map((figure) => (
                  <tr key={figure.label}>
                    <th scope="row">{figure.label}</th>
                    <td>{figure.baseline}</td>
                    <td>{figure.candidate}</td>
                    <td className={`delta tone-${figure.tone}`}>{figure.delta}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="release-shadow-actions">
              <label className="check-label">
                <input
                  type="checkbox"
                  data-testid="release-shadow-attach"
                  checked={props.attached === latest.id}
                  onChange={(event) => onAttach(event.target.checked ? latest.id : null)}
                />
                Attach to the release
              </label>
              {latest.totals.cases > 0 ? (
                <button
                  type="button"
                  className="link-btn"
                  aria-expanded={opened !== null}
                  onClick={() => void open()}
                >
                  {opened
                    ? "Hide the cases"
                    : latest.totals.cases === 1
                      ? "Show the case"
                      : `Show the ${latest.totals.cases} cases`}
                </button>
              ) : null}
            </div>
            {opened ? <ShadowCases report={opened} /> : null}
          </>
        ) : (
          <p className="release-note">
            No shadow report yet for v{version ?? "?"}. A shadow comparison replays the recent runs that{" "}
            {channel || "production"} served on v{version ?? "?"}, its tool calls answered from their
            recordings only: no tool runs twice.
          </p>
        )}
        <div>
          <button
            type="button"
            className="btn btn-small"
            data-testid="release-shadow-run"
            disabled={running || version === null}
            onClick={() => void run()}
          >
            {running ? "Replaying…" : latest ? "Run it again" : "Run shadow comparison"}
          </button>
        </div>
        {error ? <p className="field-error">{error}</p> : null}
      </div>
    </section>
  );
}
