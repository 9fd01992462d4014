import type { ReactElement } from "react";
import { useEditor, useUi } from "../editor/editor-context.js";
import { CommandPalette } from "./command-palette.js";
import { ExportDialog } from "./export-dialog.js";
import { ImportDialog } from "./import-dialog.js";
import { NewAgentDialog } from "./new-agent-dialog.js";
import { PublishDialog } from "./publish-dialog.js";
import { ReleaseDialog } from "../release-views/release-dialog.js";
import { ReleasesDialog } from "../release-views/releases-dialog.js";
import { ShortcutsDialog } from "./shortcuts-dialog.js";
import { ConfirmDialog, ConflictDialog, RenameDialog, TokenDialog } from "./simple-dialogs.js";
import { ToolTestDialog } from "./tool-test-dialog.js";
import { TriggersDialog } from "../trigger-views/triggers-dialog.js";
import { UseAgentDialog } from "./use-agent-dialog.js";
import { VersionsDialog } from "./versions-dialog.js";

/** Renders the open dialog, if any; its result resolves the promise `openDialog` returned. */
export function DialogHost(): ReactElement | null {
  const editor = useEditor();
  const dialog = useUi((state) => state.dialog);
  if (!dialog) return null;
  const close = (result: unknown) => editor.ui.getState().closeDialog(result);
  const dismiss = () => close(null);
  switch (dialog.kind) {
    case "confirm":
      return <ConfirmDialog props={dialog.props} close={close} />;
    case "conflict":
      return <ConflictDialog props={dialog.props} close={close} />;
    case "rename":
      return <RenameDialog props={dialog.props} close={close} />;
    case "token":
      return <TokenDialog props={dialog.props} close={close} />;
    case "newAgent":
      return <NewAgentDialog close={close} />;
    case "import":
      return <ImportDialog close={dismiss} />;
    case "export":
      return <ExportDialog close={dismiss} />;
    case "versions":
      return <VersionsDialog close={dismiss} />;
    case "release":
      return <ReleaseDialog channel={dialog.props.channel} close={dismiss} />;
    case "releases":
      return <ReleasesDialog channel={dialog.props.channel} close={dismiss} />;
    case "shortcuts":
      return <ShortcutsDialog close={dismiss} />;
    case "toolTest":
      return <ToolTestDialog toolName={dialog.props.tool} close={dismiss} />;
    case "useAgent":
      return <UseAgentDialog close={dismiss} />;
    case "publish":
      return <PublishDialog close={dismiss} />;
    case "triggers":
      return <TriggersDialog close={dismiss} />;
    case "commandPalette":
      return <CommandPalette close={dismiss} />;
  }
}
