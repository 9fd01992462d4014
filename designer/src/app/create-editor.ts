import { ApiClient } from "../api/api-client.js";
import { getStoredToken, setStoredToken } from "../api/token-storage.js";
import { createCommandRegistry } from "../commands/command-registry.js";
import { createEditorCommands } from "../commands/editor-commands.js";
import { getErrorMessage } from "../api/api-error.js";
import { AgentSession } from "../session/agent-session.js";
import { createDocumentStore } from "../store/document-store.js";
import { createSessionStore } from "../store/session-store.js";
import { createUiStore } from "../store/ui-store.js";
import { createAgentFromTemplate } from "../templates/agent-templates.js";
import type { Editor } from "./editor-context.js";

/** Wires the stores, the API client (asking for a token on 401), the agent session and the commands. */
export function createEditor(): Editor {
  const document = createDocumentStore({
    spec: createAgentFromTemplate({ template: "blank", id: "untitled", name: "Untitled agent" }),
  });
  const ui = createUiStore();
  const session = createSessionStore();
  let pendingToken: Promise<boolean> | null = null;
  const api = new ApiClient({
    getToken: getStoredToken,
    onUnauthorized: () => {
      // several requests can fail at once: ask once
      pendingToken ??= ui
        .getState()
        .openDialog("token", {
          message: "This Waddle server needs an API token (the value of WADDLE_TOKEN).",
        })
        .then((token) => {
          pendingToken = null;
          if (!token) return false;
          setStoredToken(token);
          return true;
        });
      return pendingToken;
    },
  });
  const agents = new AgentSession({ api, document, session, ui });
  const commands = createCommandRegistry<Editor>({
    commands: createEditorCommands(),
    transact: (editor, label, perform) => editor.document.getState().transact(label, perform),
    onError: (error) => ui.getState().notify("error", getErrorMessage(error)),
  });
  const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
  return { api, document, ui, session, agents, commands, canvas: { current: null }, isMac };
}
