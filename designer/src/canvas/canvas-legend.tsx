import type { EdgeKind } from "@waddle/protocol";
import { Panel } from "@xyflow/react";
import type { ReactElement } from "react";
import { useEditor, useUi } from "../editor/editor-context.js";

const KINDS: readonly { kind: EdgeKind; label: string; blurb: string }[] = [
  {
    kind: "auto_seq",
    label: "Auto-seq",
    blurb:
      "The target may follow the source without asking the model, when its args fit the source's output.",
  },
  {
    kind: "order",
    label: "Order",
    blurb: "An ordering hint: the planner is told to call the source before the target.",
  },
];

/** The edge legend, which doubles as the picker for the kind new connections get. */
export function CanvasLegend(): ReactElement {
  const editor = useEditor();
  const edgeKind = useUi((state) => state.edgeKind);
  const showSuggestions = useUi((state) => state.showSuggestions);
  return (
    <Panel position="top-left" className="legend" data-testid="edge-legend">
      <span className="legend-title">New edges</span>
      <div className="segmented" role="radiogroup" aria-label="Kind of new edges">
        {KINDS.map(({ kind, label, blurb }) => (
          <button
            key={kind}
            type="button"
            role="radio"
            aria-checked={edgeKind === kind}
            className={`segment${edgeKind === kind ? " is-active" : ""}`}
            data-testid={`edge-kind-${kind}`}
            title={`${blurb} (press E to switch)`}
            onClick={() => editor.ui.getState().set({ edgeKind: kind })}
          >
            <svg width="26" height="8" aria-hidden>
              <line x1="1" y1="4" x2="25" y2="4" className={`legend-line legend-${kind}`} />
            </svg>
            {label}
          </button>
        ))}
      </div>
      <label
        className="legend-toggle"
        title="Ghosted auto-seq edges where a tool's output fits another's args (Shift+S)"
      >
        <input
          type="checkbox"
          checked={showSuggestions}
          data-testid="toggle-suggestions"
          onChange={(event) => editor.ui.getState().set({ showSuggestions: event.target.checked })}
        />
        <svg width="22" height="8" aria-hidden>
          <line x1="1" y1="4" x2="21" y2="4" className="legend-line legend-suggested" />
        </svg>
        Suggestions
      </label>
    </Panel>
  );
}
