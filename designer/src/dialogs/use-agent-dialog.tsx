import { useEffect, type ReactElement } from "react";
import { Dialog } from "../components/dialog.js";
import { Icon } from "../components/icon.js";
import { useDocument, useEditor, useServer } from "../editor/editor-context.js";
import { getUseSnippets, TOKEN_PLACEHOLDER, type UseSnippet } from "./get-use-snippets.js";
import { UsePublicChatSection } from "./use-public-chat-section.js";

/** **Use**: how to call the open agent from code, each snippet with a copy button, and its public chat. */
export function UseAgentDialog({ close }: { close: () => void }): ReactElement {
  const editor = useEditor();
  const agentId = useDocument((state) => state.agentId);
  const sample = useDocument((state) => state.spec.sampleQueries[0]);
  const authRequired = useServer((state) => state.health?.authRequired === true);
  const cliPath = useServer((state) => state.health?.cliPath);
  // Health loaded before signing in to a server with a token does not say where the CLI is: ask again.
  useEffect(() => {
    if (cliPath !== undefined || !authRequired) return;
    let live = true;
    editor.api.health().then(
      (health) => live && health.cliPath !== undefined && editor.server.getState().set({ health }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [editor, cliPath, authRequired]);
  const copy = async (snippet: UseSnippet) => {
    try {
      await navigator.clipboard.writeText(snippet.text);
      editor.ui.getState().notify("success", `Copied the ${snippet.title} snippet.`);
    } catch {
      editor.ui
        .getState()
        .notify("error", "The browser refused the clipboard: select the text and copy it by hand.");
    }
  };
  if (agentId === null) {
    return (
      <Dialog title="Use this agent" testId="use-dialog" onClose={close}>
        <p className="explain">Save the agent first: code calls a saved agent by its id.</p>
      </Dialog>
    );
  }
  const snippets = getUseSnippets({
    origin: window.location.origin,
    agentId,
    query: sample ?? "What can you do?",
    authRequired,
    cliPath,
  });
  return (
    <Dialog title="Use this agent" size="large" testId="use-dialog" onClose={close}>
      <p className="explain">
        Call “{agentId}” from code on this server ({window.location.origin}). Runs use its latest saved
        version.
        {authRequired
          ? ` Set WADDLE_TOKEN to the server's token in your shell first (export WADDLE_TOKEN=…); in the MCP configuration, replace ${TOKEN_PLACEHOLDER} with it.`
          : " This server needs no token."}{" "}
        To put it in front of people, see Public chat at the end.
      </p>
      <div className="use-snippets">
        {snippets.map((snippet) => (
          <section key={snippet.id} className="use-snippet" data-testid={`use-snippet-${snippet.id}`}>
            <header className="use-snippet-head">
              <h3>{snippet.title}</h3>
              <span className="use-snippet-hint">{snippet.hint}</span>
              <button
                type="button"
                className="btn btn-small"
                data-testid={`use-copy-${snippet.id}`}
                onClick={() => void copy(snippet)}
              >
                <Icon name="copy" size={14} />
                Copy
              </button>
            </header>
            <pre className="mono use-snippet-text">{snippet.text}</pre>
          </section>
        ))}
        <UsePublicChatSection agentId={agentId} />
      </div>
    </Dialog>
  );
}
