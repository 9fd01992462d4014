import type { ReactElement } from "react";
import { useEditor, useUi } from "../editor/editor-context.js";
import { AgentList } from "./agent-list.js";
import { Palette } from "./palette.js";
import { Tabs } from "../components/tabs.js";

/** Agents and the tool palette. */
export function LeftSidebar(): ReactElement {
  const editor = useEditor();
  const tab = useUi((state) => state.leftTab);
  return (
    <aside className="sidebar sidebar-left" aria-label="Agents and tools">
      <Tabs
        label="Left panel"
        value={tab}
        onChange={(leftTab) => editor.ui.getState().set({ leftTab })}
        tabs={[
          { value: "agents", label: "Agents", testId: "tab-agents" },
          { value: "palette", label: "Tools", testId: "tab-palette" },
        ]}
      />
      <div className="sidebar-scroll">{tab === "agents" ? <AgentList /> : <Palette />}</div>
    </aside>
  );
}
