import type { ReactElement } from "react";
import { useId } from "react";
import { useDocument, useEditor } from "../../editor/editor-context.js";
import type { ChatThreadTurn } from "../../chats/get-chat-thread.js";
import { getSendState } from "../../chats/get-send-state.js";
import { sendChatMessage } from "./chat-actions.js";
import { useDenied } from "../../store/me-store.js";
import { getChatViewStore, useChatView, useChats } from "./use-chat-store.js";
import { getPanelRunTarget, useRunPanel } from "../panel/run-panel-store.js";
import type { RunTargetChoice } from "../../releases/run-target.js";

/** What a new chat starts on, as the Run/Chat target picker says: "the latest save", "production", "v7". */
function getNewChatTarget(target: RunTargetChoice): string {
  if (target.kind === "channel") return target.channel;
  return target.kind === "version" ? `v${target.version}` : "the latest save";
}

/**
 * The message box and Send. Send is off, with the reason beside it, while a turn runs or waits for a
 * decision, while the chat loads or sends, once the session is closed, and with nothing typed.
 */
export function ChatComposer(props: { lastTurn: ChatThreadTurn | null }): ReactElement {
  const editor = useEditor();
  const inputId = useId();
  const reasonId = useId();
  const message = useChatView((state) => state.message);
  const agentId = useChats((state) => state.agentId);
  const record = useChats((state) => state.record);
  const sending = useChats((state) => state.sending);
  const loading = useChats((state) => state.loading);
  const baseVersion = useDocument((state) => state.baseVersion);
  const startDenied = useDenied("runs:start");
  const target = useRunPanel((panel) => getPanelRunTarget(panel, agentId));
  const state = getSendState({
    agentId,
    closed: record?.status === "closed",
    lastTurn: props.lastTurn,
    sending,
    loading,
    query: message,
  });
  // "type a message" is what the empty box says already: no need to repeat it below
  const reason = startDenied ?? (state.ok || state.block === "empty" ? null : state.reason);
  const versionNote =
    record !== null && baseVersion !== null && baseVersion > record.agentVersion
      ? `This chat runs v${record.agentVersion}; the agent is now v${baseVersion}. A new chat runs ${getNewChatTarget(target)}.`
      : null;
  const send = () => {
    if (state.ok && startDenied === null) void sendChatMessage(editor);
  };
  return (
    <form
      className="chat-composer"
      aria-label="Send a message"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label className="sr-only" htmlFor={inputId}>
        Message
      </label>
      <textarea
        id={inputId}
        className="input chat-input"
        rows={2}
        value={message}
        placeholder={
          record === null
            ? "Ask the agent something… (Enter sends)"
            : "Reply… (Enter sends, Shift+Enter for a new line)"
        }
        data-testid="chat-input"
        aria-describedby={reason ? reasonId : undefined}
        onChange={(event) => getChatViewStore(editor).getState().set({ message: event.target.value })}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div className="chat-composer-row">
        <p
          id={reasonId}
          className="chat-send-reason"
          data-testid="chat-send-reason"
          data-block={state.ok ? undefined : state.block}
          aria-live="polite"
        >
          {reason ?? versionNote ?? ""}
        </p>
        <button
          type="submit"
          className="btn btn-primary btn-small"
          data-testid="chat-send"
          disabled={!state.ok || startDenied !== null}
          title={startDenied ?? (state.ok ? "Send as the next turn" : state.reason)}
        >
          Send
        </button>
      </div>
    </form>
  );
}
