import { memo, type ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import type { NodeRunView } from "../../runs/fold/run-view.js";
import { useRunStore } from "../use-run-store.js";
import { decideOnPause, editPauseArgs } from "../run-actions.js";
import { RunNodeStatus } from "./run-node-status.js";

/** A tool node's run strip, with the pause's decisions while the live run waits on this tool. */
export const ToolNodeRun = memo(function ToolNodeRun({
  name,
  run,
}: {
  name: string;
  run: NodeRunView;
}): ReactElement {
  const editor = useEditor();
  const canDecide = useRunStore(
    (state) => state.mode === "live" && state.view?.status === "paused" && state.view.pause?.tool === name,
  );
  if (!canDecide || run.state !== "awaiting_approval") return <RunNodeStatus node={run} />;
  return (
    <RunNodeStatus
      node={run}
      onApprove={() => void decideOnPause(editor, { decision: "approve" })}
      onReject={() => void decideOnPause(editor, { decision: "reject" })}
      onEdit={() => editPauseArgs(editor)}
    />
  );
});
