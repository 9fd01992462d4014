import type { ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { Icon } from "../components/icon.js";

/** What an empty canvas says: how to start, in three steps. */
export function CanvasEmptyState(): ReactElement {
  const editor = useEditor();
  return (
    <div className="canvas-empty" data-testid="canvas-empty">
      <div className="canvas-empty-card">
        <h2>Draw your agent</h2>
        <ol>
          <li>
            <strong>Add tools</strong> — drag them from the <em>Tools</em> palette on the left, or press{" "}
            <kbd>N</kbd> for a mock tool.
          </li>
          <li>
            <strong>Connect them</strong> — drag from a tool's right handle to another tool. Pick{" "}
            <em>auto-seq</em> or <em>order</em> in the legend.
          </li>
          <li>
            <strong>Save</strong> — <kbd>{editor.isMac ? "⌘" : "Ctrl"}</kbd>+<kbd>S</kbd>. Issues show up live
            on the right.
          </li>
        </ol>
        <div className="canvas-empty-actions">
          <button
            type="button"
            className="btn btn-primary"
            data-testid="empty-add-tool"
            onClick={() => editor.commands.execute("add-mock-tool", editor)}
          >
            <Icon name="plus" /> Add a mock tool
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => editor.ui.getState().set({ leftTab: "palette" })}
          >
            <Icon name="tool" /> Open the palette
          </button>
        </div>
      </div>
    </div>
  );
}
