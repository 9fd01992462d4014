import { TERMINAL_RUN_STATUSES, type AgentSpec } from "@waddle/protocol";
import { memo, useState, type ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import type { ChatThreadTurn } from "../../chats/get-chat-thread.js";
import { ApprovalCard } from "../panel/approval-card.js";
import { openRunOnCanvas } from "./chat-actions.js";
import { AnswerDataView } from "../../answer/answer-data-view.js";

function getAnswerPlaceholder(status: ChatThreadTurn["status"]): string {
  if (status === "queued") return "Starting…";
  if (status === "running") return "Thinking…";
  if (status === "paused") return "Waits for your decision.";
  if (status === "cancelled") return "Cancelled before it answered.";
  if (status === "failed" || status === "interrupted") return "No answer: the turn stopped.";
  return "No answer.";
}

/** The turn's thinking, folded; an ended turn's is read from its stored events when first opened. */
function ChatThinking(props: { runId: string; thinking: string | null }): ReactElement {
  const editor = useEditor();
  const [open, setOpen] = useState(false);
  const { thinking } = props;
  return (
    <details
      className="run-thinking chat-thinking"
      data-testid="chat-thinking"
      open={open}
      onToggle={(event) => {
        const next = event.currentTarget.open;
        setOpen(next);
        if (next && thinking === null) void editor.chats.getState().loadTurn(props.runId);
      }}
    >
      <summary>
        Thinking
        <span className="run-muted">
          {thinking === null
            ? ""
            : thinking
              ? ` · ${thinking.length.toLocaleString("en")} characters`
              : " · none streamed"}
        </span>
      </summary>
      <pre className="run-thinking-text">{thinking ?? "Loading…"}</pre>
    </details>
  );
}

/**
 * One turn of the thread: the query, then the reply: a pause to decide inline (the Run tab's approval
 * card), the thinking folded, and the answer as it streams. The turn's header shows it on the canvas.
 */
export const ChatTurn = memo(function ChatTurn(props: {
  turn: ChatThreadTurn;
  spec: AgentSpec | null;
  /** This turn's run is the one on the canvas. */
  shown: boolean;
  editing: boolean;
  onEditingChange: (editing: boolean) => void;
}): ReactElement {
  const editor = useEditor();
  const { turn, spec, shown } = props;
  const pause = turn.pause;
  const tool = pause?.tool ? spec?.tools.find((candidate) => candidate.name === pause.tool) : undefined;
  return (
    <article
      className={`chat-turn is-${turn.status}${shown ? " is-shown" : ""}`}
      data-testid="chat-turn"
      data-turn={turn.turn}
      data-run-id={turn.runId}
      data-status={turn.status}
      aria-label={`Turn ${turn.turn}`}
    >
      <div className="chat-query">
        <p className="chat-bubble">{turn.query}</p>
      </div>
      <div className="chat-reply">
        <div className="chat-turn-meta">
          <button
            type="button"
            className="chat-turn-open"
            data-testid="chat-turn-open"
            aria-pressed={shown}
            title={shown ? "This turn is on the canvas" : "Show this turn on the canvas as a run"}
            onClick={() => openRunOnCanvas(editor, turn.runId)}
          >
            Turn {turn.turn}
            <span className="chat-turn-open-hint">{shown ? "on the canvas" : "show on canvas"}</span>
          </button>
          <span className={`run-status status-${turn.status}`} data-testid="chat-turn-status">
            {turn.status}
          </span>
        </div>
        {pause ? (
          <ApprovalCard
            key={pause.resumeToken}
            pause={pause}
            tool={tool}
            editing={props.editing}
            onEditingChange={props.onEditingChange}
            onDecide={async (input) => (await editor.chats.getState().resume(turn.runId, input)).ok}
          />
        ) : null}
        <ChatThinking runId={turn.runId} thinking={turn.thinking} />
        <div
          className={`chat-answer${turn.answer ? "" : " is-empty"}${turn.streaming ? " is-streaming" : ""}`}
          data-testid="chat-answer"
          data-done={TERMINAL_RUN_STATUSES.has(turn.status)}
          aria-busy={turn.streaming}
          data-placeholder={getAnswerPlaceholder(turn.status)}
        >
          {turn.answer}
        </div>
        {turn.data ? (
          <details className="chat-answer-json" data-testid="chat-answer-json">
            <summary>JSON answer</summary>
            <AnswerDataView data={turn.data} testId="chat-answer-data" />
          </details>
        ) : null}
        {turn.error ? (
          <p className="chat-turn-error" role="alert">
            {turn.error.message}
          </p>
        ) : null}
      </div>
    </article>
  );
});
