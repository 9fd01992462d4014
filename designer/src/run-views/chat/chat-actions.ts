import type { Editor } from "../../editor/editor-context.js";
import { getLiveTurnRunId } from "../../chats/get-live-turn.js";
import { getChatViewStore } from "./use-chat-store.js";
import { getPanelRunTarget, getRunPanelStore } from "../panel/run-panel-store.js";
import { getRunTargetRequest } from "../../releases/run-target.js";

/**
 * What the Chat tab does beyond the chat store: a turn sent is shown live on the canvas (as the Run tab
 * shows the run it starts), and a turn or task picked in the thread opens there as today's run view.
 */

/** Sends the typed message as the next turn (a new chat on the picked target); on success the box empties and the turn shows on the canvas. */
export async function sendChatMessage(editor: Editor): Promise<boolean> {
  const view = getChatViewStore(editor);
  const message = view.getState().message;
  const panel = getRunPanelStore(editor).getState();
  const target = getRunTargetRequest(getPanelRunTarget(panel, editor.chats.getState().agentId));
  const runId = await editor.chats.getState().send(message, target);
  if (runId === null) return false;
  if (view.getState().message === message) view.getState().set({ message: "" });
  void editor.runs.getState().openRun(runId);
  return true;
}

/**
 * Opens a chat (from its route, a reload among them, or the list): a turn still going shows live on the
 * canvas, as it did when it was sent, unless the canvas already shows a run the person opened.
 */
export async function openChatSession(editor: Editor, sessionId: string): Promise<boolean> {
  const opened = await editor.chats.getState().openSession(sessionId);
  const runId = opened ? getLiveTurnRunId(editor.chats.getState().record) : null;
  if (runId !== null && editor.runs.getState().mode === "edit") await editor.runs.getState().openRun(runId);
  return opened;
}

/** Shows a run (a turn, a task) on the canvas: live while it goes on, else as a replay. */
export function openRunOnCanvas(editor: Editor, runId: string): void {
  const runs = editor.runs.getState();
  if (runs.runId === runId && runs.mode !== "edit") return;
  void runs.openRun(runId);
}
