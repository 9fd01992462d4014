import type { InboxItem } from "@waddle/protocol";
import { useEffect, useMemo, useState, type ReactElement } from "react";
import { getErrorMessage } from "../api/api-error.js";
import { Icon } from "../components/icon.js";
import { useEditor, useServer } from "../editor/editor-context.js";
import { getInboxItemTitle, getPreviewArgs, getStartedByLabel } from "../inbox/describe-inbox-item.js";
import { formatWaitDuration, getDueLabel } from "../inbox/format-waiting.js";
import { isSnoozed } from "../inbox/inbox-filter.js";
import type { PauseDetail } from "../inbox/inbox-store.js";
import { ApprovalCard, type PendingRunPause } from "../run-views/panel/approval-card.js";
import { getAgentRouteHash } from "../run-views/run-route.js";
import { useDenied } from "../store/me-store.js";
import { formatStartTime } from "../util/format-time.js";
import { AssignMenu, SnoozeMenu } from "./inbox-item-menus.js";
import { getInboxStore, openRunRoute, useInbox } from "./use-inbox.js";

const CARD_TEST_IDS = { approve: "inbox-approve", reject: "inbox-reject", edit: "inbox-edit" };

/**
 * One item of the Inbox: the agent, who started it, how long it has waited and when it is due (counting
 * down), assign, snooze and Open; beside them the run view's own approval form (approve, reject, edit the
 * args, a note).
 */
export function InboxItemCard(props: {
  item: InboxItem;
  now: number;
  me: string | null;
  keyNames: readonly string[];
}): ReactElement {
  const { item, now } = props;
  const editor = useEditor();
  const store = getInboxStore(editor);
  const agentName = useServer(
    (state) => state.agents.find((agent) => agent.id === item.agentId)?.name ?? item.agentId,
  );
  const error = useInbox((state) => state.itemErrors[item.itemId] ?? null);
  const markDenied = useDenied("runs:decide");
  const [editing, setEditing] = useState(false);
  const [detail, setDetail] = useState<PauseDetail | null>(null);
  const [detailError, setDetailError] = useState<string | null>(null);
  const preview = useMemo(() => getPreviewArgs(item.argsPreview), [item.argsPreview]);
  const loadDetail = async (): Promise<PauseDetail | null> => {
    if (detail) return detail;
    try {
      const read = await store.getState().getPauseDetail(item);
      setDetail(read);
      return read;
    } catch (cause) {
      setDetailError(`Cannot read the whole pause: ${getErrorMessage(cause)}`);
      return null;
    }
  };
  // args cut short in the list: read them whole, so that the person judges (and may edit) all of them;
  // a guard's pause: read its facts (the guard, where, what it found); the list carries only its sentence
  const explained = item.reason === "guard";
  useEffect(() => {
    if (item.kind === "pause" && ((!preview.complete && preview.text !== null) || explained))
      void loadDetail();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [item.itemId, preview.complete]);

  const merge = item.kind === "merge";
  const pause: PendingRunPause = {
    reason: merge ? "merge_pending" : item.reason,
    // the list's sentence (a stuck run's, a guard's) until the pause's whole payload is read
    payload: detail?.payload ?? (item.message === undefined ? {} : { message: item.message }),
    resumeToken: item.resumeToken ?? item.itemId,
    tool: merge ? `Task results “${item.reason}”` : (item.tool ?? null),
    args: merge ? undefined : detail ? detail.args : preview.complete ? preview.args : undefined,
    callId: null,
    nodeStateBefore: null,
  };
  const due = getDueLabel(item.dueAt, item.onTimeout, now);
  const waited = Date.parse(item.createdAt);
  const snoozed = isSnoozed(item, now);
  const runHash = getAgentRouteHash({ agentId: item.agentId, runId: item.runId });
  return (
    <li
      className={`inbox-item${due?.urgent ? " is-urgent" : ""}`}
      data-testid="inbox-item"
      data-kind={item.kind}
      data-agent={item.agentId}
      data-item-id={item.itemId}
      data-run-id={item.runId}
      aria-label={`${agentName}: ${getInboxItemTitle(item)}`}
    >
      <div className="inbox-item-side">
        <div className="inbox-item-agent" title={`${item.agentId}, version ${item.agentVersion}`}>
          <Icon name="robot" size={14} />
          <strong>{agentName}</strong>
          <span className="inbox-item-version">
            v{item.agentVersion}
            {item.channel ? ` · ${item.channel}` : ""}
          </span>
        </div>
        <dl className="inbox-item-facts">
          <dt>Started by</dt>
          <dd data-testid="inbox-started-by">{getStartedByLabel(item.startedBy)}</dd>
          <dt>Waiting</dt>
          <dd data-testid="inbox-waited" title={new Date(waited).toLocaleString()}>
            {Number.isFinite(waited) ? formatWaitDuration(now - waited) : "—"}
          </dd>
          {due ? (
            <>
              <dt>Due</dt>
              <dd
                className={`inbox-due${due.urgent ? " is-urgent" : ""}`}
                data-testid="inbox-due"
                data-overdue={due.overdue}
                title={`The server decides at ${new Date(item.dueAt!).toLocaleString()}`}
              >
                <span className="inbox-due-countdown">{due.text}</span>
                <span className="inbox-muted"> · {formatStartTime(item.dueAt, { now })}</span>
              </dd>
            </>
          ) : null}
          <dt>Assigned</dt>
          <dd data-testid="inbox-assignee">{item.assignee ?? <span className="inbox-muted">nobody</span>}</dd>
          {snoozed ? (
            <>
              <dt>Snoozed</dt>
              <dd data-testid="inbox-snoozed">until {formatStartTime(item.snoozedUntil, { now })}</dd>
            </>
          ) : null}
        </dl>
        <div className="inbox-item-actions">
          {markDenied ? (
            // a key that may not decide may not assign or snooze either: the buttons say why
            <>
              <button
                type="button"
                className="btn btn-ghost"
                data-testid="inbox-assign"
                disabled
                title={markDenied}
              >
                Assign
              </button>
              <button
                type="button"
                className="btn btn-ghost"
                data-testid="inbox-snooze"
                disabled
                title={markDenied}
              >
                Snooze
              </button>
            </>
          ) : (
            <>
              <AssignMenu
                item={item}
                me={props.me}
                keyNames={props.keyNames}
                onAssign={(assignee) => store.getState().assign(item.itemId, assignee)}
              />
              <SnoozeMenu
                item={item}
                now={now}
                onSnooze={(until) => store.getState().snooze(item.itemId, until)}
              />
            </>
          )}
          <a
            className="btn btn-ghost"
            href={runHash}
            data-testid="inbox-open-run"
            title="Open the run on the canvas: its steps, and the same decision in the run panel"
            onClick={(event) => {
              event.preventDefault();
              openRunRoute(runHash);
            }}
          >
            <Icon name="target" />
            <span className="btn-label">Open</span>
          </a>
        </div>
      </div>
      <div className="inbox-item-main">
        {!preview.complete && preview.text !== null && !detail ? (
          <pre className="approval-args inbox-args-preview" data-testid="inbox-args-preview">
            {preview.text}
          </pre>
        ) : null}
        <ApprovalCard
          pause={pause}
          tool={detail?.tool}
          editing={editing}
          testIds={CARD_TEST_IDS}
          onEditingChange={(next) => {
            if (!next) return setEditing(false);
            // the form is the tool's args schema, prefilled with the whole args: read both first
            void loadDetail().then((read) => read && setEditing(true));
          }}
          onDecide={(input) => store.getState().decide(item, input)}
        />
        {error || detailError ? (
          <p className="field-error" role="alert" data-testid="inbox-item-error">
            {error ?? detailError}
          </p>
        ) : null}
      </div>
    </li>
  );
}
