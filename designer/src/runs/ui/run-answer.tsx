import type { ReactElement } from "react";
import type { RunView } from "../run-view.js";

/** The answer as it streams in; a caret while it is still being written. */
export function RunAnswer({
  view,
}: {
  view: Pick<RunView, "answer" | "answerDone" | "finish" | "status">;
}): ReactElement {
  const answer = view.answer || view.finish?.answer || "";
  const streaming =
    !view.answerDone && answer !== "" && (view.status === "running" || view.status === "queued");
  return (
    <div className="run-answer-box">
      <div className="run-subhead">
        Answer
        {view.finish ? (
          <span className="run-finish-reason">{view.finish.reason.replaceAll("_", " ")}</span>
        ) : null}
      </div>
      <div
        className={`run-answer${answer ? "" : " is-empty"}${streaming ? " is-streaming" : ""}`}
        data-testid="run-answer"
        data-done={view.answerDone}
        aria-live="polite"
        aria-busy={streaming}
      >
        {answer ||
          (view.status === "running" || view.status === "queued" ? "Waiting for the answer…" : "No answer.")}
      </div>
    </div>
  );
}
