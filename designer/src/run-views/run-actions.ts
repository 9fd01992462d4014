import { LATEST_CHANNEL } from "@waddle/protocol";
import type { Editor } from "../editor/editor-context.js";
import { getIsDirty } from "../store/document-store.js";
import type { ResumeInput } from "../runs/run-store.js";
import { getPanelRunTarget, getRunPanelStore } from "./panel/run-panel-store.js";
import { getRunTargetRequest } from "../releases/run-target.js";

/**
 * What the run panel, the header's Run control and the nodes' approval buttons do: start a run of the
 * saved version (saving first when asked), cancel, answer a pause, go back to editing. The run store does
 * the work and keeps its errors; these add the page's side (saving the document, the panel's state).
 */

/** Opens the run panel on its Run tab, with the cursor in the query box. */
export function openRunPanel(editor: Editor): void {
  getRunPanelStore(editor).getState().set({ open: true, tab: "run", focusQuery: true });
}

/** Opens the run panel on History: past runs, their replays and chats, without starting a run. */
export function openRunHistory(editor: Editor): void {
  getRunPanelStore(editor).getState().set({ open: true, tab: "history" });
}

/**
 * Starts a run of the saved agent with the panel's query, on the picked target (the latest save unless a
 * channel or version was picked); `save` saves unsaved changes first and runs that latest save.
 */
export async function startRunFromPanel(
  editor: Editor,
  options: { save: boolean; offline?: boolean },
): Promise<boolean> {
  const panel = getRunPanelStore(editor);
  const { query: typed, queryAgentId } = panel.getState();
  const query = queryAgentId === editor.document.getState().agentId ? typed.trim() : "";
  if (!query) {
    panel
      .getState()
      .set({ notice: { tone: "error", kind: "start-error", message: "Type a query for the agent first." } });
    return false;
  }
  const document = editor.document.getState();
  if ((options.save || document.agentId === null) && getIsDirty(document) && !(await editor.agents.save()))
    return false;
  const agentId = editor.document.getState().agentId;
  if (agentId === null) return false;
  panel.getState().set({ notice: null, editingToken: null, tab: "run" });
  editor.runs.getState().clearError();
  const target = options.save
    ? { channel: LATEST_CHANNEL }
    : getRunTargetRequest(getPanelRunTarget(panel.getState(), agentId));
  return (
    (await editor.runs
      .getState()
      .startRun({ agentId, query, ...target, ...(options.offline ? { offline: true } : {}) })) !== null
  );
}

export async function cancelShownRun(editor: Editor): Promise<void> {
  await editor.runs.getState().cancelRun();
}

/** Sends a decision on the shown run's pause; false when it was refused (the store's error says why). */
export async function decideOnPause(editor: Editor, input: ResumeInput): Promise<boolean> {
  const panel = getRunPanelStore(editor);
  panel.getState().set({ notice: null });
  const result = await editor.runs.getState().resume(input);
  panel.getState().set({ editingToken: null });
  return result.ok;
}

/** Opens the edit-args form of the shown pause in the panel (from a node's Edit button). */
export function editPauseArgs(editor: Editor): void {
  const token = editor.runs.getState().view?.pause?.resumeToken ?? null;
  getRunPanelStore(editor).getState().set({ open: true, tab: "run", editingToken: token });
}

/** Leaves the run: the canvas shows the document again and editing is back on. */
export function backToEditing(editor: Editor): void {
  getRunPanelStore(editor).getState().set({ editingToken: null, notice: null });
  editor.runs.getState().closeRun();
}
