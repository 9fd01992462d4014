import { useEffect, useMemo, useState, type ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { isFiltered } from "../inbox/inbox-filter.js";
import { useNow } from "../run-views/panel/use-now.js";
import { meStore } from "../store/me-store.js";
import { InboxFilters } from "./inbox-filters.js";
import { InboxItemCard } from "./inbox-item-card.js";
import { getInboxStore, useInbox } from "./use-inbox.js";
import "../styles/inbox.css";

/**
 * The **Inbox** page: everything that waits for a person across agents (pauses and merges), newest first,
 * filtered, live over `watch_inbox`; each item decided inline, assigned, snoozed or opened on the canvas.
 */
export function InboxPage({ onClose }: { onClose: () => void }): ReactElement {
  const editor = useEditor();
  const store = getInboxStore(editor);
  const items = useInbox((state) => state.items);
  const filter = useInbox((state) => state.filter);
  const status = useInbox((state) => state.status);
  const error = useInbox((state) => state.error);
  const notice = useInbox((state) => state.notice);
  const nextCursor = useInbox((state) => state.nextCursor);
  const openCount = useInbox((state) => state.openCount);
  const me = meStore((state) => state.me?.name ?? null);
  const manages = meStore((state) => state.me?.permissions?.includes("keys:manage") ?? false);
  const [keys, setKeys] = useState<readonly string[]>([]);
  // waiting times and due countdowns tick every second while anything is listed
  const now = useNow(items.length > 0, 1_000);

  useEffect(() => {
    const stop = store.getState().watch();
    void store.getState().load();
    return stop;
  }, [store]);
  useEffect(() => {
    if (!manages) return;
    let live = true;
    editor.api.listKeys().then(
      (list) => live && setKeys(list.filter((key) => !key.revokedAt).map((key) => key.name)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [editor, manages]);
  const keyNames = useMemo(() => {
    const names = new Set(keys);
    for (const item of items) if (item.assignee) names.add(item.assignee);
    return [...names].sort();
  }, [keys, items]);

  return (
    <section className="inbox-page" data-testid="inbox-page" aria-label="Inbox">
      <header className="inbox-header">
        <div>
          <h1>
            Inbox
            {openCount !== null ? (
              <span className="inbox-header-count" data-testid="inbox-page-count">
                {openCount} open
              </span>
            ) : null}
          </h1>
          <p>
            Every run, chat turn and task that waits for a person, and every merge held for one, across your
            agents. Decide here or open the run on the canvas.
          </p>
        </div>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Back to the designer
        </button>
      </header>
      <InboxFilters
        filter={filter}
        me={me}
        keyNames={keyNames}
        onChange={(patch) => void store.getState().setFilter(patch)}
      />
      {notice ? (
        <div className="inbox-notice" role="status" data-testid="inbox-notice">
          <span>{notice}</span>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() => store.getState().dismissNotice()}
          >
            Dismiss
          </button>
        </div>
      ) : null}
      {error ? (
        <p className="inbox-error" role="alert" data-testid="inbox-error">
          {error}
        </p>
      ) : null}
      {status === "loading" && items.length === 0 ? (
        <p className="inbox-empty">Reading the inbox…</p>
      ) : status === "ready" && items.length === 0 ? (
        <div className="inbox-empty" data-testid="inbox-empty">
          <strong>
            {isFiltered(filter) ? "Nothing matches these filters." : "Nothing waits for a person."}
          </strong>
          <p>
            A run that pauses for approval or input, and a merge held for a person, shows here as it happens.
            A tool&apos;s or the agent&apos;s approval time limit decides it if nobody does.
          </p>
        </div>
      ) : null}
      <ul className="inbox-list" aria-label="Waiting items">
        {items.map((item) => (
          <InboxItemCard key={item.itemId} item={item} now={now} me={me} keyNames={keyNames} />
        ))}
      </ul>
      {nextCursor ? (
        <button
          type="button"
          className="btn inbox-more"
          data-testid="inbox-more"
          onClick={() => void store.getState().loadMore()}
        >
          Show older items
        </button>
      ) : null}
    </section>
  );
}
