import { useEffect, type ReactElement } from "react";
import { useDocument, useEditor } from "../../editor/editor-context.js";
import { ChatSessionList } from "./chat-session-list.js";
import { ChatThreadView } from "./chat-thread.js";
import { useChats } from "./use-chat-store.js";

/**
 * The run panel's Chat tab: the open agent's chats (search, New chat), or one chat's thread. Its sessions
 * are listed and kept live from the moment the tab first shows.
 */
export function ChatTab(): ReactElement {
  const editor = useEditor();
  const agentId = useDocument((state) => state.agentId);
  const inThread = useChats((state) => state.sessionId !== null || state.drafting);
  useEffect(() => {
    void editor.chats.getState().watchAgent(agentId);
  }, [editor, agentId]);
  return (
    <div className="chat-tab" data-testid="chat-panel">
      {agentId === null ? (
        <p className="chat-empty">Save the agent first: a chat runs a saved version of it.</p>
      ) : inThread ? (
        <ChatThreadView />
      ) : (
        <ChatSessionList />
      )}
    </div>
  );
}
