import type { ToolImplKind } from "@waddle/protocol";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo, type ReactElement } from "react";
import { Icon, type IconName } from "../components/icon.js";
import { IssueBadge } from "../components/issue-badge.js";
import { SideEffectBadge } from "../components/side-effect-badge.js";
import type { ToolFlowNode } from "../graph/flow-types.js";
import { ToolNodeRun } from "../run-views/canvas/tool-node-run.js";
import { useToolRunView } from "../run-views/canvas/use-run-canvas.js";
import { TOOL_KIND_INFO } from "../templates/create-new-tool.js";

export const KIND_ICONS: Record<ToolImplKind, IconName> = {
  module: "cube",
  mock: "flask",
  http: "globe",
  llm: "sparkles",
  agent: "robot",
  mcp: "plug",
  a2a: "link",
};

/** A tool on the canvas: name, kind, side effect, approval lock, auto-seq and hint marks, issue badge. */
export const ToolNode = memo(function ToolNode({ data, selected }: NodeProps<ToolFlowNode>): ReactElement {
  const { tool, issues, preferred, disallowed, sequentialOnly, joinOf } = data;
  const state = issues ? (issues.errors > 0 ? " has-errors" : " has-warnings") : "";
  // its own slice of the run store: only this node re-renders when its run state changes
  const run = useToolRunView(tool.name);
  return (
    <div
      className={`tool-node se-${tool.sideEffects}${selected ? " is-selected" : ""}${disallowed ? " is-disallowed" : ""}${state}`}
      data-testid={`tool-node-${tool.name}`}
      data-run-state={run?.state}
    >
      <Handle type="target" position={Position.Left} className="handle" title="Drop an edge here" />
      <div className="tool-node-head">
        <span
          className="tool-kind"
          title={`${TOOL_KIND_INFO[tool.impl.kind].label}: ${TOOL_KIND_INFO[tool.impl.kind].blurb}`}
        >
          <Icon name={KIND_ICONS[tool.impl.kind]} size={14} />
        </span>
        <span className="tool-name" title={tool.name}>
          {tool.name}
        </span>
        {issues ? <IssueBadge issues={issues} testId={`issue-badge-${tool.name}`} /> : null}
      </div>
      <p className={`tool-desc${tool.desc ? "" : " is-empty"}`}>{tool.desc || "No description yet"}</p>
      <div className="tool-marks">
        <SideEffectBadge sideEffect={tool.sideEffects} />
        {tool.requiresApproval ? (
          <span className="mark mark-lock" title="Requires approval: the run pauses before this tool">
            <Icon name="lock" size={12} label="requires approval" />
          </span>
        ) : null}
        {tool.autoSeq ? (
          <span
            className="mark mark-auto"
            title={
              tool.autoSeqExecute
                ? "Auto-seq: may follow automatically and run without asking the model"
                : "Auto-seq: may be detected as the next step"
            }
          >
            <Icon name="bolt" size={12} />
            {tool.autoSeqExecute ? "auto-run" : "auto"}
          </span>
        ) : null}
        {preferred ? (
          <span className="mark mark-prefer" title="Preferred by the planning hints">
            <Icon name="star" size={12} label="preferred" />
          </span>
        ) : null}
        {disallowed ? (
          <span
            className="mark mark-disallow"
            title="Disallowed by the planning hints: the planner never calls it"
          >
            <Icon name="ban" size={12} label="disallowed" />
          </span>
        ) : null}
        {sequentialOnly ? (
          <span className="mark mark-seq" title="Sequential only: never runs in a parallel branch">
            <Icon name="sequence" size={12} label="sequential only" />
          </span>
        ) : null}
        {joinOf ? (
          <span className="mark mark-join" title={`Joins the results of “${joinOf}”`}>
            join
          </span>
        ) : null}
      </div>
      {run ? <ToolNodeRun name={tool.name} run={run} /> : null}
      <Handle
        type="source"
        position={Position.Right}
        className="handle"
        title="Drag to connect to the next tool"
      />
    </div>
  );
});
