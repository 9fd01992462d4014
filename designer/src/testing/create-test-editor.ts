import type { AgentSpec } from "@waddle/protocol";
import { createApiClient } from "../api/api-client.js";
import { createEditorCommands } from "../commands/editor-commands.js";
import { createCommandRegistry } from "../editor/command-registry.js";
import type { Editor } from "../editor/editor-context.js";
import { createChatStore } from "../chats/chat-store.js";
import { FakeSessionTransport } from "../chats/transport/fake-session-transport.js";
import { FakeRunTransport } from "../runs/transport/fake-run-transport.js";
import { createRunStore } from "../runs/run-store.js";
import { AgentLibrary } from "../agents/agent-library.js";
import { createDocumentStore } from "../store/document-store.js";
import { createServerStore } from "../store/server-store.js";
import { createUiStore } from "../store/ui-store.js";
import { FakeSocketServer } from "./fake-socket-server.js";
import { makeSpec } from "./make-spec.js";

/**
 * A real editor over real stores, commands and agent library, with runs on a fake transport and the socket
 * connection on a fake server. The API answers with `fetch`, by default 503 to everything (for tests whose
 * code never calls it).
 */
export function createTestEditor(options: { spec?: AgentSpec; fetch?: typeof fetch } = {}): Editor {
  const document = createDocumentStore({ spec: options.spec ?? makeSpec() });
  const ui = createUiStore();
  const server = createServerStore();
  const api = createApiClient({
    getToken: () => null,
    fetch: options.fetch ?? ((async () => new Response(null, { status: 503 })) as typeof fetch),
  });
  const commands = createCommandRegistry<Editor>({
    commands: createEditorCommands(),
    transact: (editor, label, perform) => editor.document.getState().transact(label, perform),
  });
  const runTransport = new FakeRunTransport();
  return {
    api,
    connection: new FakeSocketServer().createConnection(),
    document,
    ui,
    server,
    agents: new AgentLibrary({ api, document, server, ui }),
    commands,
    runs: createRunStore({ api, transport: runTransport }),
    chats: createChatStore({ api, runs: runTransport, sessions: new FakeSessionTransport() }),
    canvas: { current: null },
    isMac: false,
  };
}
