import { useEffect, type ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { Icon } from "../components/icon.js";
import { navigateToHash } from "../settings/settings-route.js";
import { getInboxStore, INBOX_HASH, useInbox, useInboxRoute } from "./use-inbox.js";

/**
 * The header's **Inbox**: what waits for a person across agents, with the open count live (the watch it
 * holds keeps the count and the page's list current).
 */
export function InboxButton(): ReactElement {
  const editor = useEditor();
  const count = useInbox((state) => state.openCount);
  const shown = useInboxRoute();
  useEffect(() => getInboxStore(editor).getState().watch(), [editor]);
  const label =
    count === null ? "Inbox" : `Inbox: ${count} item${count === 1 ? "" : "s"} waiting for a person`;
  return (
    <button
      type="button"
      className={`btn btn-ghost inbox-open${shown ? " is-active" : ""}`}
      data-testid="inbox-open"
      aria-label={label}
      aria-pressed={shown}
      title={`${label} (approvals and merges across agents)`}
      onClick={() => navigateToHash(INBOX_HASH)}
    >
      <Icon name="inbox" />
      <span className="btn-label">Inbox</span>
      {count !== null && count > 0 ? (
        <span className="inbox-count" data-testid="inbox-count" aria-hidden>
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </button>
  );
}
