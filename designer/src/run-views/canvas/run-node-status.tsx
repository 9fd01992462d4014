import type { ReactElement } from "react";
import type { NodeRunState, NodeRunView } from "../../runs/fold/run-view.js";
import { formatDuration } from "../../util/format-metrics.js";
import { useDenied } from "../../store/me-store.js";
import { GuardShield } from "./guard-shield.js";

const STATE_LABELS: Record<NodeRunState, string> = {
  idle: "not run",
  queued: "queued",
  running: "running",
  succeeded: "succeeded",
  failed: "failed",
  retrying: "retrying",
  skipped: "skipped",
  awaiting_approval: "awaiting approval",
  rejected: "rejected",
};

/** The state label a node shows: `retrying (attempt 2)` while retrying. */
export function getNodeStateLabel(node: Pick<NodeRunView, "state" | "attempt">): string {
  return node.state === "retrying" ? `retrying (attempt ${node.attempt})` : STATE_LABELS[node.state];
}

/**
 * A tool node's run strip: its state (a spinner while it runs), calls and total time, failures, and for a
 * step waiting for approval the approve / reject / edit buttons (the panel shows the same decision).
 */
export function RunNodeStatus(props: {
  node: NodeRunView;
  /** The node's tool, for the guard shield's tooltip ("lookup's result"). */
  tool?: string;
  onApprove?: () => void;
  onReject?: () => void;
  onEdit?: () => void;
  /** **Fork from here**: from the step of the node's latest call. */
  onFork?: () => void;
}): ReactElement {
  const { node } = props;
  const label = getNodeStateLabel(node);
  // a role that may not decide or start runs sees the buttons off, with the reason
  const decideDenied = useDenied("runs:decide");
  const forkDenied = useDenied("runs:start");
  return (
    <>
      {/* on the node's top edge, so the strip keeps its room for the state and counters */}
      {node.guards ? (
        <span className="node-guard-badge nodrag nopan">
          <GuardShield marks={node.guards} tool={props.tool} actedOnly />
        </span>
      ) : null}
      <div
        className={`node-run state-${node.state}${node.replayed ? " is-replayed" : ""}`}
        data-testid="node-run-status"
        data-status={node.state}
        data-replayed={node.replayed ? "true" : undefined}
        data-cached={node.cached ? "true" : undefined}
        data-edited={node.edited ? "true" : undefined}
        data-stuck={node.stuck ? node.stuck.action : undefined}
        title={node.replayed ? "Copied from the run this fork was made from" : undefined}
      >
        <div className="node-run-line">
          <span className="node-run-state" role="status" aria-label={`Run state: ${label}`}>
            {node.state === "running" || node.state === "retrying" ? (
              <span className="run-spinner" aria-hidden />
            ) : null}
            {label}
          </span>
          {node.calls > 0 ? (
            <span className="node-run-counters" data-testid="node-run-counters" data-calls={node.calls}>
              {node.calls} call{node.calls === 1 ? "" : "s"}
              {/* a served call took no time: the flag says why, in the room the duration took */}
              {node.cached || node.edited ? "" : ` · ${formatDuration(node.totalMs)}`}
              {node.failures > 0 ? (
                <span className="node-run-failures"> · {node.failures} failed</span>
              ) : null}
            </span>
          ) : null}
          {node.cached ? (
            <span
              className="node-run-flag"
              data-testid="node-run-cached"
              title="Served from the parent run's record: this fork reused the call instead of running the tool"
            >
              cached
            </span>
          ) : node.edited ? (
            <span
              className="node-run-flag is-edited"
              data-testid="node-run-edited"
              title="A result written when the run was forked: the tool did not run"
            >
              edited
            </span>
          ) : null}
          {node.stuck ? (
            <span
              className="node-run-flag is-stuck"
              data-testid="node-run-stuck"
              title={`Stuck: ${node.stuck.message}`}
            >
              stuck
            </span>
          ) : null}
          {props.onFork ? (
            <button
              type="button"
              className="node-run-fork nodrag nopan"
              data-testid="fork-button"
              disabled={forkDenied !== null}
              title={forkDenied ?? "Fork the run from this tool's latest step"}
              onClick={(event) => {
                event.stopPropagation();
                props.onFork?.();
              }}
            >
              Fork
            </button>
          ) : null}
        </div>
        {node.state === "awaiting_approval" && props.onApprove ? (
          <div className="node-run-approval nodrag nopan" role="group" aria-label="Decide on this step">
            <button
              type="button"
              className="btn btn-primary btn-small"
              data-testid="node-approve-button"
              disabled={decideDenied !== null}
              title={decideDenied ?? "Approve: the run goes on with this call"}
              onClick={props.onApprove}
            >
              Approve
            </button>
            <button
              type="button"
              className="btn btn-small btn-reject"
              data-testid="node-reject-button"
              disabled={decideDenied !== null}
              title={decideDenied ?? "Reject: the run goes on without this call"}
              onClick={props.onReject}
            >
              Reject
            </button>
            <button
              type="button"
              className="btn btn-small"
              data-testid="node-edit-args-button"
              disabled={decideDenied !== null}
              title={decideDenied ?? "Edit the call's args in the run panel, then approve"}
              onClick={props.onEdit}
            >
              Edit…
            </button>
          </div>
        ) : null}
      </div>
    </>
  );
}
