import { getRunTokens } from "@waddle/protocol";
import { useLayoutEffect, useMemo, useRef, useState, type ReactElement, type RefObject } from "react";
import { useDocument, useEditor } from "../../editor/editor-context.js";
import { getChatThread } from "../../chats/get-chat-thread.js";
import { getChatTray } from "../../chats/get-chat-tray.js";
import { formatCount } from "../../util/format-metrics.js";
import { useRunStore } from "../use-run-store.js";
import { openRunOnCanvas } from "./chat-actions.js";
import { ChatComposer } from "./chat-composer.js";
import { ChatTray } from "./chat-tray.js";
import { ChatTurn } from "./chat-turn.js";
import { RunTargetPicker } from "../panel/run-target-picker.js";
import { useDenied } from "../../store/me-store.js";
import { getChatViewStore, useChatView, useChats } from "./use-chat-store.js";

/** The chat store's last error, dismissible. */
function ChatNotice(): ReactElement | null {
  const editor = useEditor();
  const error = useChats((state) => state.error);
  if (!error) return null;
  return (
    <p
      className={`run-notice tone-error kind-${error.kind}`}
      role="alert"
      data-testid="chat-error"
      data-kind={error.kind}
      data-reason={error.reason}
    >
      <span>
        {error.kind === "already_answered" ? <strong>Already answered. </strong> : null}
        {error.message}
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        aria-label="Dismiss"
        onClick={() => editor.chats.getState().clearError()}
      >
        ×
      </button>
    </p>
  );
}

/** Keeps a scrolled list at its bottom as it grows, unless the person scrolled up to read. */
function useStickToBottom(deps: unknown): RefObject<HTMLDivElement | null> {
  const ref = useRef<HTMLDivElement | null>(null);
  const stick = useRef(true);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onScroll = () => {
      stick.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    return () => element.removeEventListener("scroll", onScroll);
  }, []);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element && stick.current) element.scrollTop = element.scrollHeight;
  }, [deps]);
  return ref;
}

/** One chat: its header, the thread of turns, the tray of tasks and merges, and the message box. */
export function ChatThreadView(): ReactElement {
  const editor = useEditor();
  const record = useChats((state) => state.record);
  const loading = useChats((state) => state.loading);
  const turnViews = useChats((state) => state.turnViews);
  const pendingTurn = useChats((state) => state.pendingTurn);
  const groupReports = useChats((state) => state.groupReports);
  const spec = useChats((state) => state.spec);
  const agentName = useDocument((state) => state.spec.name);
  const sampleQueries = useDocument((state) => state.spec.sampleQueries);
  const shownRunId = useRunStore((state) => (state.mode === "edit" ? null : state.runId));
  const trayChoice = useChatView((state) => state.trayOpen);
  const [editingRunId, setEditingRunId] = useState<string | null>(null);
  const thread = useMemo(
    () => getChatThread({ record, turnViews, pendingTurn }),
    [record, turnViews, pendingTurn],
  );
  const tray = useMemo(() => getChatTray(record, groupReports), [record, groupReports]);
  const scrollRef = useStickToBottom(thread);
  const trayOpen = trayChoice ?? (tray.merges.length > 0 || tray.active > 0 || tray.total > 0);
  const closed = record?.status === "closed";
  const startDenied = useDenied("runs:start");
  const closeDenied = useDenied("runs:cancel");

  const closeChat = async () => {
    const confirmed = await editor.ui.getState().openDialog("confirm", {
      title: "Close this chat?",
      message:
        "Its background tasks are cancelled and no turn can be sent any more. Its turns and runs are kept.",
      confirmLabel: "Close chat",
      danger: true,
    });
    if (confirmed) await editor.chats.getState().closeSession();
  };

  return (
    <div className="chat-thread-view">
      <div className="chat-toolbar">
        <button
          type="button"
          className="btn btn-ghost btn-small"
          data-testid="chat-back"
          title="All chats with this agent"
          onClick={() => editor.chats.getState().leaveSession()}
        >
          ← Chats
        </button>
        <div className="chat-title" data-testid="chat-title" title={record?.title}>
          {record?.title || "New chat"}
        </div>
        <button
          type="button"
          className="btn btn-small"
          data-testid="chat-new"
          disabled={startDenied !== null}
          title={startDenied ?? "Start a new chat with this agent"}
          onClick={() => editor.chats.getState().newChat()}
        >
          New chat
        </button>
      </div>
      {record === null && !loading ? <RunTargetPicker what="chat" /> : null}
      {record ? (
        <div
          className="chat-meta"
          data-testid="chat-meta"
          data-session-id={record.id}
          data-status={record.status}
        >
          <span className={`run-history-status is-${record.status === "waiting" ? "paused" : record.status}`}>
            {record.status}
          </span>
          <span>
            v{record.agentVersion}
            {record.channel ? ` · ${record.channel}` : ""}
          </span>
          <span>
            {record.turns.length === 1 ? "1 turn" : `${record.turns.length} turns`} ·{" "}
            {formatCount(getRunTokens(record.usage))} tokens
          </span>
          {record.compactedThroughTurn > 0 ? (
            <span title="Earlier turns reach the model as a summary">
              turns 1–{record.compactedThroughTurn} summarized
            </span>
          ) : null}
          {closed ? null : (
            <button
              type="button"
              className="btn btn-ghost btn-small chat-close"
              data-testid="chat-close"
              disabled={closeDenied !== null}
              title={closeDenied ?? "Close the chat: no more turns; its turns and runs are kept"}
              onClick={() => void closeChat()}
            >
              Close chat
            </button>
          )}
        </div>
      ) : null}
      <div
        className="chat-thread"
        ref={scrollRef}
        role="log"
        aria-label="Conversation"
        data-testid="chat-thread"
      >
        {loading ? <p className="run-empty">Loading the chat…</p> : null}
        {!loading && thread.length === 0 ? (
          <div className="chat-empty">
            <p>
              <strong>Chat with {agentName}.</strong> Each message is a turn: a run of the saved agent that
              sees the turns before it. Click a turn to watch it on the canvas.
            </p>
            {sampleQueries.length > 0 ? (
              <div className="sample-queries">
                {sampleQueries.slice(0, 4).map((query) => (
                  <button
                    key={query}
                    type="button"
                    className="sample-query"
                    title={query}
                    onClick={() => getChatViewStore(editor).getState().set({ message: query })}
                  >
                    {query}
                  </button>
                ))}
              </div>
            ) : null}
          </div>
        ) : null}
        {thread.map((turn) => (
          <ChatTurn
            key={turn.runId}
            turn={turn}
            spec={spec}
            shown={shownRunId === turn.runId}
            editing={editingRunId === turn.runId}
            onEditingChange={(editing) => setEditingRunId(editing ? turn.runId : null)}
          />
        ))}
      </div>
      <ChatTray
        tray={tray}
        shownRunId={shownRunId}
        open={trayOpen}
        onOpenChange={(open) => getChatViewStore(editor).getState().set({ trayOpen: open })}
        onOpenRun={(runId) => openRunOnCanvas(editor, runId)}
      />
      <ChatNotice />
      <ChatComposer lastTurn={thread.at(-1) ?? null} />
    </div>
  );
}
