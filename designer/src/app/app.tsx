import { ReactFlowProvider } from "@xyflow/react";
import { useState, type ReactElement } from "react";
import { FlowCanvas } from "../canvas/flow-canvas.js";
import { ContextMenu } from "../canvas/context-menu.js";
import { useKeyboardShortcuts } from "../editor/use-keyboard-shortcuts.js";
import { AppHeader } from "../shell/app-header.js";
import { LeftSidebar } from "../shell/left-sidebar.js";
import { RightSidebar } from "../shell/right-sidebar.js";
import { Toasts } from "../shell/toasts.js";
import { DialogHost } from "../dialogs/dialog-host.js";
import { RunPanel } from "../run-views/panel/run-panel.js";
import { useRunPanelShown } from "../run-views/panel/run-panel-store.js";
import { createEditor } from "./create-editor.js";
import { EditorContext, type Editor } from "../editor/editor-context.js";
import { useAgentRoute } from "./use-agent-route.js";
import { useTheme } from "./use-theme.js";
import { useUnsavedGuard } from "./use-unsaved-guard.js";
import { useDraftAutosave } from "../editor/use-draft-autosave.js";
import { useServerCheck } from "../editor/use-server-check.js";
import { DraftBanner } from "../shell/draft-banner.js";
import { CredentialsPage } from "../settings/credentials-page.js";
import { useCredentialsRoute } from "../settings/use-credentials-route.js";
import { navigateToHash } from "../settings/settings-route.js";
import { getAgentRouteHash } from "../run-views/run-route.js";
import { SidePanel } from "../shell/side-panel.js";
import { usePanelColumns } from "../shell/use-panel-columns.js";
import { useClipboardJson } from "../canvas/use-clipboard-json.js";
import { AccessGate } from "../access/access-gate.js";
import { AccessPage } from "../access/access-page.js";
import { useAccessRoute } from "../access/access-route.js";
import { InboxPage } from "../inbox-views/inbox-page.js";
import { useInboxRoute } from "../inbox-views/use-inbox.js";

function Shell({ editor }: { editor: Editor }): ReactElement {
  const theme = useTheme();
  useKeyboardShortcuts(editor);
  useAgentRoute(editor);
  useUnsavedGuard(editor);
  useDraftAutosave(editor);
  useServerCheck(editor);
  const runPanelShown = useRunPanelShown();
  const credentials = useCredentialsRoute();
  const columns = usePanelColumns(runPanelShown);
  useClipboardJson(editor);
  const access = useAccessRoute();
  const inbox = useInboxRoute();
  const backToAgent = () =>
    navigateToHash(getAgentRouteHash({ agentId: editor.document.getState().agentId }));
  return (
    <div className="app">
      <AppHeader />
      <div
        className="app-body"
        style={credentials || access || inbox ? undefined : { gridTemplateColumns: columns }}
      >
        {inbox ? (
          <InboxPage onClose={backToAgent} />
        ) : access ? (
          <AccessPage onClose={backToAgent} />
        ) : credentials ? (
          <CredentialsPage
            route={credentials}
            onClose={() => navigateToHash(getAgentRouteHash({ agentId: editor.document.getState().agentId }))}
          />
        ) : (
          <>
            <SidePanel side="left" label="Agents and tools">
              <LeftSidebar />
            </SidePanel>
            <main className="canvas-area" aria-label="Canvas">
              <DraftBanner />
              <FlowCanvas colorMode={theme} />
            </main>
            <SidePanel side="right" label={runPanelShown ? "Run" : "Inspector"}>
              {runPanelShown ? <RunPanel /> : <RightSidebar />}
            </SidePanel>
          </>
        )}
      </div>
      <ContextMenu />
      <DialogHost />
      <Toasts />
    </div>
  );
}

/** The designer: one editor (stores, API, commands) for the page. */
export function App(): ReactElement {
  return (
    <AccessGate>
      <Designer />
    </AccessGate>
  );
}

/** The editor, made once the server has said who is signed in. */
function Designer(): ReactElement {
  const [editor] = useState(createEditor);
  return (
    <EditorContext.Provider value={editor}>
      <ReactFlowProvider>
        <Shell editor={editor} />
      </ReactFlowProvider>
    </EditorContext.Provider>
  );
}
