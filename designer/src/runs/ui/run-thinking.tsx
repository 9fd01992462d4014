import { useState, type ReactElement } from "react";

/** The model's thinking channel (reasoning deltas), collapsed until asked for. */
export function RunThinking({ thinking }: { thinking: string }): ReactElement {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="run-thinking"
      data-testid="run-thinking"
      data-length={thinking.length}
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>
        Thinking
        <span className="run-muted">
          {thinking ? ` · ${thinking.length.toLocaleString("en")} characters` : " · none streamed"}
        </span>
      </summary>
      {open ? <pre className="run-thinking-text">{thinking || "The model streamed no thinking."}</pre> : null}
    </details>
  );
}
