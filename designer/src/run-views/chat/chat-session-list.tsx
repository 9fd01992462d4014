import { useMemo, type ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import { SearchField } from "../../components/search-field.js";
import { useDenied } from "../../store/me-store.js";
import { filterSessions } from "../../chats/session-list.js";
import { formatRelativeTime } from "../../util/format-time.js";
import { getChatViewStore, useChatView, useChats } from "./use-chat-store.js";
import { openChatSession } from "./chat-actions.js";
import { RunTargetPicker } from "../panel/run-target-picker.js";

const STATUS_LABELS = { idle: "idle", running: "running", waiting: "waiting", closed: "closed" } as const;

/** The agent's chats, newest activity first, with a search over titles and last messages. */
export function ChatSessionList(): ReactElement {
  const editor = useEditor();
  const sessions = useChats((state) => state.sessions);
  const loaded = useChats((state) => state.sessionsLoaded);
  const search = useChatView((state) => state.search);
  const shown = useMemo(() => filterSessions(sessions, search), [sessions, search]);
  const startDenied = useDenied("runs:start");
  return (
    <div className="chat-list-view">
      <div className="chat-toolbar">
        <SearchField
          value={search}
          onChange={(value) => getChatViewStore(editor).getState().set({ search: value })}
          placeholder="Search chats"
          label="Search chats"
          testId="chat-search"
        />
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="chat-new"
          disabled={startDenied !== null}
          title={startDenied ?? "Start a new chat with this agent"}
          onClick={() => editor.chats.getState().newChat()}
        >
          New chat
        </button>
      </div>
      <RunTargetPicker what="chat" />
      {!loaded ? (
        <p className="run-empty">Loading chats…</p>
      ) : sessions.length === 0 ? (
        <div className="chat-empty" data-testid="chat-empty">
          <p>
            <strong>No chats with this agent yet.</strong>
          </p>
          <p>
            A chat is a conversation over many turns: each message runs the agent once, and it remembers the
            turns before. Background tasks it starts go on after a turn has answered and show in the chat's
            tray. <strong>New chat</strong> starts one.
          </p>
        </div>
      ) : shown.length === 0 ? (
        <p className="run-empty">No chat matches “{search.trim()}”.</p>
      ) : (
        <ul className="chat-sessions" aria-label="Chats">
          {shown.map((session) => (
            <li key={session.id}>
              <button
                type="button"
                className={`chat-session is-${session.status}`}
                data-testid="chat-session-item"
                data-session-id={session.id}
                data-status={session.status}
                onClick={() => void openChatSession(editor, session.id)}
              >
                <span className="chat-session-head">
                  <span className="chat-session-title">{session.title || "New chat"}</span>
                  <span
                    className={`run-history-status is-${session.status === "waiting" ? "paused" : session.status}`}
                  >
                    {STATUS_LABELS[session.status]}
                  </span>
                </span>
                {session.lastQuery ? <span className="chat-session-last">{session.lastQuery}</span> : null}
                <span className="chat-session-meta">
                  {session.turnCount === 1 ? "1 turn" : `${session.turnCount} turns`} · v
                  {session.agentVersion} · {formatRelativeTime(session.updatedAt)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
