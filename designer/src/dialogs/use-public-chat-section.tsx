import type { PublicChat } from "@waddle/protocol";
import { useEffect, useState, type ReactElement } from "react";
import { getErrorMessage } from "../api/api-error.js";
import { useEditor } from "../editor/editor-context.js";
import { PublishedChatPanel } from "./published-chat-panel.js";
import "../styles/publish.css";

/**
 * The Use dialog's way to put the agent in front of people: the public chat's share link, embed snippet and
 * preview when it is published, else a way to Publish.
 */
export function UsePublicChatSection({ agentId }: { agentId: string }): ReactElement {
  const editor = useEditor();
  const [chat, setChat] = useState<PublicChat | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    editor.api.getPublicChat(agentId).then(
      (found) => live && setChat(found),
      (error: unknown) => live && setProblem(getErrorMessage(error)),
    );
    return () => {
      live = false;
    };
  }, [editor, agentId]);
  return (
    <section className="use-snippet use-public-chat" data-testid="use-public-chat">
      <header className="use-snippet-head">
        <h3>Public chat</h3>
        <span className="use-snippet-hint">A chat page for people, on a link or as a button on a site</span>
        <button
          type="button"
          className="btn btn-small"
          data-testid="use-open-publish"
          onClick={() => void editor.ui.getState().openDialog("publish", {})}
        >
          {chat ? "Settings…" : "Publish…"}
        </button>
      </header>
      {problem ? (
        <p className="empty-note is-error">{problem}</p>
      ) : chat === undefined ? (
        <p className="empty-note">Loading…</p>
      ) : chat === null ? (
        <p className="explain">
          Not published yet: Publish turns on a hosted chat page for this agent, with a share link and a
          snippet that adds a chat button to your site.
        </p>
      ) : (
        <PublishedChatPanel chat={chat} />
      )}
    </section>
  );
}
