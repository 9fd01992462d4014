import type { Command } from "../editor/command-registry.js";
import type { Editor } from "../editor/editor-context.js";
import { openRunPanel } from "../run-views/run-actions.js";
import { getCredentialsHash, navigateToHash } from "../settings/settings-route.js";
import { getViewPrefsStore } from "../editor/use-view-prefs.js";
import type { PanelSide } from "../store/view-prefs-store.js";

/** The commands (and so the shortcuts) that show or hide each side panel. */
export const PANEL_COMMANDS: Record<PanelSide, { name: string; shortcut: string }> = {
  left: { name: "toggle-left-panel", shortcut: "Mod+B" },
  right: { name: "toggle-right-panel", shortcut: "Mod+Alt+B" },
};

function togglePanel(side: PanelSide, label: string): Command<Editor> {
  return {
    name: PANEL_COMMANDS[side].name,
    label,
    shortcut: PANEL_COMMANDS[side].shortcut,
    section: "View",
    undoable: false,
    perform: (editor) => getViewPrefsStore(editor).getState().togglePanel(side),
  };
}

/** View and navigation commands: the command palette, the side panels, following a run, run, credentials. */
export function createViewCommands(): Command<Editor>[] {
  return [
    {
      name: "command-palette",
      label: "Command palette…",
      shortcut: "Mod+K",
      section: "View",
      undoable: false,
      perform: (editor) => void editor.ui.getState().openDialog("commandPalette", {}),
    },
    togglePanel("left", "Show or hide the agents and tools panel"),
    togglePanel("right", "Show or hide the inspector / run panel"),
    {
      name: "toggle-follow-run",
      label: "Follow the running tool during a run",
      section: "View",
      undoable: false,
      perform(editor) {
        const prefs = getViewPrefsStore(editor).getState();
        prefs.setFollowRun(!prefs.followRun);
        editor.ui
          .getState()
          .notify(
            "info",
            prefs.followRun ? "Following the run is off." : "The view follows the running tool.",
          );
      },
    },
    {
      name: "open-run-panel",
      label: "Run the agent…",
      section: "Run",
      undoable: false,
      perform(editor) {
        getViewPrefsStore(editor).getState().setPanel("right", { collapsed: false });
        openRunPanel(editor);
      },
    },
    {
      name: "open-credentials",
      label: "Open credentials and allowed hosts",
      section: "View",
      undoable: false,
      perform: () => navigateToHash(getCredentialsHash()),
    },
  ];
}
