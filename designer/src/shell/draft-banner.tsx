import type { ReactElement } from "react";
import { useEditor, useServer } from "../editor/editor-context.js";
import { Icon } from "../components/icon.js";
import { DESIGN_PERMISSION, useDenied } from "../store/me-store.js";
import { formatRelativeTime } from "../util/format-time.js";

/**
 * Offers unsaved edits found after a reload: the open agent's draft kept on the server, or the draft of an
 * agent never saved kept in this browser. Restore draft, or Discard.
 */
export function DraftBanner(): ReactElement | null {
  const editor = useEditor();
  const draft = useServer((state) => state.pendingDraft);
  const unsaved = useServer((state) => state.pendingUnsavedDraft);
  // a viewer may see that an editor left a draft, but neither restore nor discard it
  const denied = useDenied(DESIGN_PERMISSION);
  if (!draft && !unsaved) return null;
  const name = typeof unsaved?.spec["name"] === "string" ? unsaved.spec["name"] : "An agent";
  return (
    <div
      className="draft-banner"
      role="status"
      data-testid="draft-banner"
      data-kind={draft ? "saved" : "unsaved"}
    >
      <Icon name="history" size={16} />
      <span className="draft-banner-text">
        {draft ? (
          <>
            This agent has unsaved changes from {formatRelativeTime(draft.updatedAt)}
            {draft.baseVersion !== null ? ` (made on version ${draft.baseVersion})` : ""}.
          </>
        ) : (
          <>
            “{name}” was never saved; this browser kept its edits (
            {formatRelativeTime(unsaved?.updatedAt ?? "")}).
          </>
        )}
      </span>
      <button
        type="button"
        className="btn btn-primary btn-small"
        data-testid="draft-restore"
        disabled={denied !== null}
        title={denied ?? undefined}
        onClick={() => (draft ? editor.agents.restoreDraft() : void editor.agents.restoreUnsavedDraft())}
      >
        Restore draft
      </button>
      <button
        type="button"
        className="btn btn-small"
        data-testid="draft-discard"
        disabled={denied !== null}
        title={denied ?? undefined}
        onClick={() => (draft ? void editor.agents.discardDraft() : editor.agents.unsaved.discard())}
      >
        Discard
      </button>
    </div>
  );
}
