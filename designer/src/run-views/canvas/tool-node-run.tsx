import { memo, type ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import type { NodeRunView } from "../../runs/fold/run-view.js";
import { useRunStore } from "../use-run-store.js";
import { decideOnPause, editPauseArgs } from "../run-actions.js";
import { RunNodeStatus } from "./run-node-status.js";
import { getRunPanelStore } from "../panel/run-panel-store.js";

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
  // Fork from the node's latest call, once the run has paused or ended.
  const forkAt = useRunStore((state) => {
    const status = state.status ?? state.view?.status;
    const call = run.lastCallId === null ? undefined : state.view?.calls[run.lastCallId];
    if (state.mode === "compare" || status === "running" || status === "queued" || !call) return null;
    return call.step;
  });
  const runId = useRunStore((state) => state.view?.runId ?? null);
  const onFork =
    forkAt === null || runId === null
      ? undefined
      : () =>
          getRunPanelStore(editor)
            .getState()
            .set({ forking: { runId, step: forkAt, callId: run.lastCallId } });
  if (!canDecide || run.state !== "awaiting_approval")
    return <RunNodeStatus node={run} tool={name} {...(onFork ? { onFork } : {})} />;
  return (
    <RunNodeStatus
      node={run}
      tool={name}
      onApprove={() => void decideOnPause(editor, { decision: "approve" })}
      onReject={() => void decideOnPause(editor, { decision: "reject" })}
      onEdit={() => editPauseArgs(editor)}
    />
  );
});
