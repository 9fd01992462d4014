import type { ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import { Tabs } from "../../components/tabs.js";
import { useRunStore } from "../use-run-store.js";
import { RunCompare } from "../compare/compare-view.js";
import { ChatTab } from "../chat/chat-tab.js";
import { RunHistory } from "../history/run-history.js";
import { getRunPanelStore, useRunPanel, type RunPanelTab } from "./run-panel-store.js";
import { RunStatusChip } from "./run-summary.js";
import { RunTab } from "./run-tab.js";
import { ForkDialog } from "../fork/fork-dialog.js";
import { TestsTab } from "../tests/tests-tab.js";

/**
 * The run panel, in the right column while it is open or a run is shown: Run (start, watch, approve),
 * Chat (the agent's sessions: a conversation over many turns), History (the agent's runs, live), Compare and Tests (cases saved from runs, run on any version).
 */
export function RunPanel(): ReactElement {
  const editor = useEditor();
  const tab = useRunPanel((state) => state.tab);
  const status = useRunStore((state) => state.status ?? state.view?.status ?? null);
  const shown = useRunStore((state) => state.mode !== "edit");
  // a comparison shows each run's status itself: the run open underneath is not what it compares
  const comparing = useRunStore((state) => state.mode === "compare");
  const runCount = useRunStore((state) => state.runs.length);
  const panel = getRunPanelStore(editor);
  const forking = useRunPanel((state) => state.forking);
  return (
    <aside className="sidebar sidebar-right run-panel" data-testid="run-panel" aria-label="Run panel">
      <div className="run-panel-head">
        <span className="run-panel-title">Runs</span>
        {status && tab !== "run" && !comparing ? <RunStatusChip status={status} /> : null}
        <button
          type="button"
          className="btn btn-ghost btn-small run-panel-close"
          data-testid="run-panel-close"
          title={shown ? "Close the panel and go back to editing" : "Close the run panel"}
          onClick={() => {
            panel.getState().set({ open: false });
            if (shown) editor.runs.getState().closeRun();
          }}
        >
          Close
        </button>
      </div>
      <Tabs<RunPanelTab>
        label="Run panel"
        value={tab}
        onChange={(next) => panel.getState().set({ tab: next })}
        tabs={[
          { value: "run", label: "Run", testId: "run-tab-run", title: "One-off runs" },
          { value: "chat", label: "Chat", testId: "chat-tab", title: "Chat with the agent over many turns" },
          {
            value: "history",
            testId: "run-tab-history",
            label: (
              <>
                History
                {runCount > 0 ? <span className="tab-count">{runCount}</span> : null}
              </>
            ),
          },
          { value: "compare", label: "Compare", testId: "run-tab-compare" },
          { value: "tests", label: "Tests", testId: "tests-tab", title: "Regression tests saved from runs" },
        ]}
      />
      {tab === "chat" ? (
        // the chat scrolls its own thread, with the message box always in view
        <div className="chat-panel-body" role="tabpanel" aria-label={tab}>
          <ChatTab />
        </div>
      ) : (
        <div className="sidebar-scroll" role="tabpanel" aria-label={tab}>
          {tab === "run" ? (
            <RunTab />
          ) : tab === "history" ? (
            <RunHistory />
          ) : tab === "tests" ? (
            <TestsTab />
          ) : (
            <RunCompare />
          )}
        </div>
      )}
      {forking ? (
        <ForkDialog
          key={`${forking.runId}:${forking.step}`}
          target={forking}
          onClose={() => panel.getState().set({ forking: null })}
        />
      ) : null}
    </aside>
  );
}
