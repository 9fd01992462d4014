import { createApiClient } from "../api/api-client.js";
import { getStoredToken, setStoredToken } from "../api/token-storage.js";
import { createCommandRegistry } from "../editor/command-registry.js";
import { createEditorCommands } from "../commands/editor-commands.js";
import { getErrorMessage } from "../api/api-error.js";
import { createChatStore } from "../chats/chat-store.js";
import { createSocketSessionTransport } from "../chats/transport/socket-session-transport.js";
import { createRunStore } from "../runs/run-store.js";
import { getRunLockedCommands } from "../run-views/get-run-locked-commands.js";
import { createSocketRunTransport } from "../runs/transport/socket-run-transport.js";
import { createSocketConnection } from "../socket/socket-connection.js";
import { AgentLibrary } from "../agents/agent-library.js";
import { createDocumentStore } from "../store/document-store.js";
import { createServerStore } from "../store/server-store.js";
import { createUiStore } from "../store/ui-store.js";
import { createAgentFromTemplate } from "../templates/agent-templates.js";
import type { Editor } from "../editor/editor-context.js";
import { createUnauthorizedHandler } from "../access/unauthorized.js";
import { DESIGN_PERMISSION, getDeniedReason, meStore } from "../store/me-store.js";
import { getPermittedCommands } from "../editor/get-permitted-commands.js";

/**
 * Wires the stores, the API client and the socket connection (on a 401: back to sign-in when a signed-in key stopped working, else
 * asking for the WADDLE_TOKEN), the agent library and the commands.
 */
export function createEditor(): Editor {
  // a role that may not write sees the design read-only: nothing it types can make the page unsaved
  const isDenied = (permission: string) => getDeniedReason(meStore.getState().me, permission) !== null;
  const document = createDocumentStore({
    spec: createAgentFromTemplate({ template: "blank", id: "untitled", name: "Untitled agent" }),
    isReadOnly: () => isDenied(DESIGN_PERMISSION),
  });
  const ui = createUiStore();
  const server = createServerStore();
  let pendingToken: Promise<boolean> | null = null;
  const askForToken = () => {
    // several requests (and the socket) can fail at once: ask once
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
  };
  const onUnauthorized = createUnauthorizedHandler({ me: meStore, askForToken });
  const api = createApiClient({ getToken: getStoredToken, onUnauthorized });
  // one socket for everything live: runs, chat sessions and the agent's lists subscribe over it
  const connection = createSocketConnection({ getToken: getStoredToken, onUnauthorized });
  const transport = createSocketRunTransport({
    connection,
    api,
    // one socket message per server tick in a burst, handed to the run store as one delivery
    batch: true,
  });
  const runs = createRunStore({ api, transport });
  const sessions = createSocketSessionTransport({ connection, api });
  const chats = createChatStore({ api, runs: transport, sessions });
  const agents = new AgentLibrary({ api, document, server, ui });
  const commands = createCommandRegistry<Editor>({
    // design edits are off while a run is shown (the canvas then shows the version that ran), and for a
    // role that may not write (a viewer, a runner)
    commands: getPermittedCommands({
      commands: getRunLockedCommands({
        commands: createEditorCommands(),
        isRunShown: (editor) => editor.runs.getState().mode !== "edit",
      }),
      isDenied,
    }),
    transact: (editor, label, perform) => editor.document.getState().transact(label, perform),
    onError: (error) => ui.getState().notify("error", getErrorMessage(error)),
  });
  const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
  return {
    api,
    connection,
    document,
    ui,
    server,
    agents,
    commands,
    runs,
    chats,
    canvas: { current: null },
    isMac,
  };
}
