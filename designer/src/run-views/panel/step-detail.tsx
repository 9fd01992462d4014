import { useEffect, useRef, type ReactElement } from "react";
import type { CallView, TimelineEntry } from "../../runs/fold/run-view.js";
import { formatDuration } from "../../util/format-metrics.js";

function Preview({ label, value, tone }: { label: string; value: unknown; tone?: "bad" }): ReactElement {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <div className={`step-preview${tone ? ` tone-${tone}` : ""}`}>
      <div className="step-preview-label">{label}</div>
      <pre className="step-preview-body">{text ?? "—"}</pre>
    </div>
  );
}

/** The selected step: the tool call's args, result or error (the events' previews), else the entry's text. */
export function StepDetail(props: {
  call: CallView | null;
  entry: TimelineEntry | null;
  onClose: () => void;
}): ReactElement | null {
  const { call, entry } = props;
  const section = useRef<HTMLElement>(null);
  const shown = call?.callId ?? entry?.seq ?? null;
  // a node clicked on the canvas shows its step here: bring it into view in the panel
  useEffect(() => {
    if (shown !== null) section.current?.scrollIntoView?.({ block: "nearest" });
  }, [shown]);
  if (!call && !entry) return null;
  return (
    <section
      ref={section}
      className="step-detail"
      data-testid="step-detail"
      aria-label="Step detail"
      data-call-id={call?.callId}
    >
      <div className="step-detail-head">
        <strong>{call ? call.tool : (entry?.title ?? "")}</strong>
        {call ? (
          <span className={`run-state-chip state-${call.status}`} data-testid="step-detail-status">
            {call.status.replace("_", " ")}
          </span>
        ) : null}
        {call?.durationMs !== undefined ? (
          <span className="run-muted">{formatDuration(call.durationMs)}</span>
        ) : null}
        {call && call.attempt > 1 ? <span className="run-muted">attempt {call.attempt}</span> : null}
        {call?.source ? <span className="run-muted">via {call.source.replace("_", "-")}</span> : null}
        <button
          type="button"
          className="btn btn-ghost btn-small step-detail-close"
          aria-label="Close step detail"
          onClick={props.onClose}
        >
          ×
        </button>
      </div>
      {entry && (!call || entry.callId !== call.callId) && entry.detail ? (
        <p className="step-detail-text">{entry.detail}</p>
      ) : null}
      {call ? (
        <>
          <Preview label="Args" value={call.args} />
          {call.failure ? (
            <Preview label={`Error · ${call.failure.code}`} value={call.failure.message} tone="bad" />
          ) : call.observation !== undefined ? (
            <Preview label="Result" value={call.observation} />
          ) : (
            <p className="run-muted">
              {call.status === "awaiting_approval" ? "Waiting for approval." : "No result yet."}
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}
