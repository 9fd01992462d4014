import type { ReactElement } from "react";
import { CopyButton } from "../components/copy-button.js";
import { formatAnswerData } from "../util/get-answer-data.js";
import "../styles/answer-data.css";

export type AnswerMode = "text" | "json";

/** "Text | JSON": which view of a structured answer is shown. */
export function AnswerModeToggle(props: {
  mode: AnswerMode;
  onChange: (mode: AnswerMode) => void;
  testId: string;
}): ReactElement {
  const modes: readonly { value: AnswerMode; label: string }[] = [
    { value: "text", label: "Text" },
    { value: "json", label: "JSON" },
  ];
  return (
    <span className="answer-mode" role="group" aria-label="Answer view" data-testid={props.testId}>
      {modes.map((mode) => (
        <button
          key={mode.value}
          type="button"
          className={`answer-mode-button${props.mode === mode.value ? " is-active" : ""}`}
          aria-pressed={props.mode === mode.value}
          data-testid={`${props.testId}-${mode.value}`}
          onClick={() => props.onChange(mode.value)}
        >
          {mode.label}
        </button>
      ))}
    </span>
  );
}

/** The answer object of a run with an answer schema, pretty-printed, with Copy. */
export function AnswerDataView(props: { data: Record<string, unknown>; testId: string }): ReactElement {
  const text = formatAnswerData(props.data);
  return (
    <div className="answer-data" data-testid={props.testId}>
      <pre className="answer-data-json" data-testid={`${props.testId}-text`}>
        {text}
      </pre>
      <div className="answer-data-actions">
        <CopyButton text={text} what="answer JSON" testId={`${props.testId}-copy`} />
      </div>
    </div>
  );
}
