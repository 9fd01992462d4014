import type { ReactElement } from "react";
import { useEditor, useServer } from "../editor/editor-context.js";
import { Icon } from "../components/icon.js";
import { formatRelativeTime } from "../util/format-time.js";

/** Offers the open agent's unsaved edits found on the server: Restore draft, or Discard. */
export function DraftBanner(): ReactElement | null {
  const editor = useEditor();
  const draft = useServer((state) => state.pendingDraft);
  if (!draft) return null;
  return (
    <div className="draft-banner" role="status" data-testid="draft-banner">
      <Icon name="history" size={16} />
      <span className="draft-banner-text">
        This agent has unsaved changes from {formatRelativeTime(draft.updatedAt)}
        {draft.baseVersion !== null ? ` (made on version ${draft.baseVersion})` : ""}.
      </span>
      <button
        type="button"
        className="btn btn-primary btn-small"
        data-testid="draft-restore"
        onClick={() => editor.agents.restoreDraft()}
      >
        Restore draft
      </button>
      <button
        type="button"
        className="btn btn-small"
        data-testid="draft-discard"
        onClick={() => void editor.agents.discardDraft()}
      >
        Discard
      </button>
    </div>
  );
}
