import { useState, type ReactElement } from "react";

/**
 * The model's thinking channel (reasoning deltas), collapsed until asked for. The text is always in the
 * element (the closed `details` hides it), so it can be read and searched without opening it.
 */
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
      <pre className="run-thinking-text" data-testid="run-thinking-text">
        {thinking}
      </pre>
    </details>
  );
}
