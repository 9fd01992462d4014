import { useState, type ReactElement } from "react";
import type { RunView } from "../../runs/fold/run-view.js";
import { getAnswerData } from "../../util/get-answer-data.js";
import { AnswerDataView, AnswerModeToggle, type AnswerMode } from "../../answer/answer-data-view.js";
import { GuardShield } from "../canvas/guard-shield.js";

/** Output guards are checking the answer, held back from every stream: nothing of it is shown yet. */
export function isAnswerBeingChecked(view: Pick<RunView, "guardChecking" | "status">): boolean {
  return (
    view.guardChecking !== null &&
    view.guardChecking.on === "output" &&
    (view.status === "running" || view.status === "queued")
  );
}

function getEmptyText(status: RunView["status"]): string {
  if (status === "running" || status === "queued") return "Waiting for the answer…";
  if (status === "paused") return "No answer yet: the run waits for a decision.";
  return "No answer.";
}

/**
 * The answer as it streams in; a caret while it is still being written. A structured answer (the agent's
 * answerSchema, `payload.data`) is shown as JSON by default, with a toggle back to its text.
 */
export function RunAnswer({
  view,
}: {
  view: Pick<RunView, "answer" | "answerDone" | "finish" | "status" | "guards" | "guardChecking">;
}): ReactElement {
  const [mode, setMode] = useState<AnswerMode>("json");
  const checking = isAnswerBeingChecked(view);
  const answer = view.answer || view.finish?.answer || "";
  const data = getAnswerData(view.finish?.payload);
  const streaming =
    !view.answerDone && answer !== "" && (view.status === "running" || view.status === "queued");
  const showJson = data !== undefined && mode === "json";
  return (
    <div className="run-answer-box">
      <div className="run-subhead">
        Answer
        {view.finish ? (
          <span className="run-finish-reason">{view.finish.reason.replaceAll("_", " ")}</span>
        ) : null}
        {data ? <AnswerModeToggle mode={mode} onChange={setMode} testId="run-answer-mode" /> : null}
        <GuardShield marks={view.guards.output} />
      </div>
      {checking ? (
        <div
          className="run-answer is-checking"
          data-testid="answer-checking"
          role="status"
          title={`Held back from every stream until these guards pass it: ${view.guardChecking?.guards.join(", ")}`}
        >
          <span className="run-spinner" aria-hidden /> Checking the answer…
          <span className="run-muted"> {view.guardChecking?.pending.join(", ")}</span>
        </div>
      ) : null}
      <div
        className={`run-answer${answer ? "" : " is-empty"}${streaming ? " is-streaming" : ""}`}
        data-testid="run-answer"
        data-done={view.answerDone}
        aria-live="polite"
        aria-busy={streaming}
        // the placeholder is drawn by CSS, so the element's text is only ever the answer
        data-placeholder={getEmptyText(view.status)}
        hidden={showJson || checking}
      >
        {answer}
      </div>
      {showJson ? <AnswerDataView data={data} testId="run-answer-json" /> : null}
    </div>
  );
}
