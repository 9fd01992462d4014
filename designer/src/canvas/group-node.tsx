import { Handle, NodeResizer, Position, type NodeProps, type OnResizeEnd } from "@xyflow/react";
import { memo, useCallback, type ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { Icon } from "../components/icon.js";
import { IssueBadge } from "../components/issue-badge.js";
import type { GroupFlowNode } from "../graph/flow-types.js";
import { getResizeStopChange } from "../graph/get-drag-stop-change.js";
import { TOOL_NODE_SIZE } from "../model/layout-geometry.js";
import { GroupRunProgress } from "../run-views/canvas/group-run-progress.js";
import { DESIGN_PERMISSION, useDenied } from "../store/me-store.js";
import { useIsRunShown } from "../run-views/canvas/use-run-canvas.js";

/** A parallel group as a frame: drag tools in and out; resize when selected. */
export const GroupNode = memo(function GroupNode({
  id,
  data,
  selected,
}: NodeProps<GroupFlowNode>): ReactElement {
  const { group, issues } = data;
  const editor = useEditor();
  const runShown = useIsRunShown();
  const readOnly = useDenied(DESIGN_PERMISSION) !== null;
  const onResizeEnd = useCallback<OnResizeEnd>(
    (_event, params) =>
      editor.document
        .getState()
        .dispatch(getResizeStopChange({ id, position: params, width: params.width, height: params.height })),
    [editor, id],
  );
  return (
    <div
      className={`group-node${selected ? " is-selected" : ""}${issues?.errors ? " has-errors" : ""}`}
      data-testid={`group-node-${group.id}`}
    >
      <NodeResizer
        isVisible={(selected ?? false) && !runShown && !readOnly}
        minWidth={TOOL_NODE_SIZE.width + 48}
        minHeight={TOOL_NODE_SIZE.height + 72}
        onResizeEnd={onResizeEnd}
        lineClassName="group-resize-line"
        handleClassName="group-resize-handle"
      />
      <div className="group-head">
        <Icon name="group" size={14} />
        <span className="group-name" title={group.name}>
          {group.name}
        </span>
        <span className="group-meta" title="Tools in this group run in parallel">
          parallel · {group.members.length}
          {group.maxParallel ? ` · max ${group.maxParallel}` : ""}
        </span>
        <GroupRunProgress group={group} />
        {issues ? <IssueBadge issues={issues} testId={`issue-badge-group-${group.id}`} /> : null}
      </div>
      {group.members.length === 0 ? (
        <p className="group-empty">Drag tools into this frame to run them in parallel.</p>
      ) : null}
      <Handle type="source" position={Position.Right} className="handle handle-join" isConnectable={false} />
    </div>
  );
});
