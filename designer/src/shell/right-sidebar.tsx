import type { ReactElement } from "react";
import { useEditor, useUi } from "../editor/editor-context.js";
import { useValidation } from "../editor/use-validation.js";
import { Inspector } from "../inspector/inspector.js";
import { HintsPanel } from "../panels/hints-panel.js";
import { IssuesPanel } from "../panels/issues-panel.js";
import { SettingsPanel } from "../panels/settings-panel.js";
import { Tabs } from "../components/tabs.js";
import { PermissionFieldset } from "../components/permission-fieldset.js";
import { DESIGN_PERMISSION } from "../store/me-store.js";

/** Inspector, hints, settings and issues. */
export function RightSidebar(): ReactElement {
  const editor = useEditor();
  const tab = useUi((state) => state.rightTab);
  const { index } = useValidation();
  const count = index.errors + index.warnings;
  return (
    <aside
      className="sidebar sidebar-right"
      aria-label="Inspector and settings"
      onBlur={() => editor.document.getState().seal()}
    >
      <Tabs
        label="Right panel"
        value={tab}
        onChange={(rightTab) => editor.ui.getState().set({ rightTab })}
        tabs={[
          { value: "inspector", label: "Inspector", testId: "tab-inspector" },
          { value: "hints", label: "Hints", testId: "tab-hints" },
          { value: "settings", label: "Settings", testId: "tab-settings" },
          {
            value: "issues",
            testId: "tab-issues",
            label: (
              <>
                Issues
                {count > 0 ? (
                  <span className={`tab-count ${index.errors > 0 ? "is-error" : "is-warning"}`}>{count}</span>
                ) : null}
              </>
            ),
          },
        ]}
      />
      <div className="sidebar-scroll">
        {tab === "issues" ? (
          <IssuesPanel />
        ) : (
          // read-only for a role that may not write: every field off, with the reason
          <PermissionFieldset permission={DESIGN_PERMISSION} action="change this agent">
            {tab === "inspector" ? <Inspector /> : tab === "hints" ? <HintsPanel /> : <SettingsPanel />}
          </PermissionFieldset>
        )}
      </div>
    </aside>
  );
}
