import { createContext, useContext } from "react";
import { useStore } from "zustand";
import type { ApiClient } from "../api/api-client.js";
import type { CommandRegistry } from "./command-registry.js";
import type { ChatStore } from "../chats/chat-store.js";
import type { RunStore } from "../runs/run-store.js";
import type { SocketConnection } from "../socket/socket-connection.js";
import type { AgentLibrary } from "../agents/agent-library.js";
import type { DocumentState, DocumentStore } from "../store/document-store.js";
import type { ServerState, ServerStore } from "../store/server-store.js";
import type { UiState, UiStore } from "../store/ui-store.js";
import type { Rect, XYPosition } from "../model/geometry.js";

/** What the canvas lets commands do to the view (registered while the canvas is mounted). */
export interface CanvasApi {
  fitView(): void;
  /** Fits the view once the canvas shows the change about to be dispatched (it arrives a render later). */
  fitAfterChange(): void;
  /** Centres the view on these elements. */
  reveal(target: { nodes?: readonly string[]; edges?: readonly string[] }): void;
  /** The flow point at the centre of the visible canvas. */
  getCenter(): XYPosition;
  /** The visible part of the canvas, in flow coordinates. */
  getViewRect(): Rect;
  /** Zooms out just enough (if at all) for what is in view and this rectangle to show together. */
  showRect(rect: Rect): void;
  /** The canvas's size on screen, in CSS pixels. */
  getScreenSize(): { width: number; height: number };
  /** Centres the view on a flow point at the present zoom (following a run). */
  panTo(point: XYPosition): void;
}

/** The editor: its stores, the API, the agent library and the command registry. */
export interface Editor {
  api: ApiClient;
  /** The one socket.io connection: live runs, chat sessions and the agent's lists (`watch_agent`). */
  connection: SocketConnection;
  document: DocumentStore;
  ui: UiStore;
  /** What the designer knows of the server: its agents, tools, MCP servers, health, a save in flight. */
  server: ServerStore;
  agents: AgentLibrary;
  commands: CommandRegistry<Editor>;
  /** Runs: the open run (live, replay, compare) and the agent's run list; outside the document and undo. */
  runs: RunStore;
  /** Chats: the agent's sessions and the open one, its turns streaming and its tasks (the Chat tab). */
  chats: ChatStore;
  canvas: { current: CanvasApi | null };
  isMac: boolean;
}

export const EditorContext = createContext<Editor | null>(null);

export function useEditor(): Editor {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error("useEditor must be used inside <EditorContext.Provider>.");
  return editor;
}

/** Reads the document store through a selector (re-renders only when the selected value changes). */
export function useDocument<T>(selector: (state: DocumentState) => T): T {
  return useStore(useEditor().document, selector);
}

export function useUi<T>(selector: (state: UiState) => T): T {
  return useStore(useEditor().ui, selector);
}

export function useServer<T>(selector: (state: ServerState) => T): T {
  return useStore(useEditor().server, selector);
}
