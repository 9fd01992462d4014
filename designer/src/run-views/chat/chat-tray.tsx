import type { MergeTask, PendingMerge, SessionDecidedMerge } from "@waddle/protocol";
import { useId, useState, type ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import type { ChatGroupReport } from "../../chats/chat-types.js";
import type { ChatTray as ChatTrayModel, ChatTrayGroup, ChatTrayTask } from "../../chats/get-chat-tray.js";
import { useDenied } from "../../store/me-store.js";
import { ENDED_TASK_STATUSES } from "../../chats/get-chat-tray.js";
import { formatStartTime } from "../../util/format-time.js";

const STRATEGY_LABELS: Record<PendingMerge["strategy"], string> = {
  HUMAN_GATED: "waits for you",
  APPEND: "added to the next turn",
  REPLACE: "replaces earlier results",
};

/** A result preview in one line (the merge card shows what would enter the conversation). */
function getPreviewText(value: unknown): string {
  if (value === undefined || value === null) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 240 ? `${text.slice(0, 239)}…` : text;
}

function TaskItem(props: {
  task: ChatTrayTask;
  shown: boolean;
  onOpen: (runId: string) => void;
}): ReactElement {
  const { task } = props;
  const live = !ENDED_TASK_STATUSES.has(task.status);
  return (
    <li>
      <button
        type="button"
        className={`chat-task${props.shown ? " is-shown" : ""}`}
        data-testid="chat-task-item"
        data-task-id={task.taskId}
        data-task-status={task.status}
        data-run-id={task.runId}
        title="Show this task's run on the canvas"
        onClick={() => props.onOpen(task.runId)}
      >
        <span className={`run-history-status is-${task.status}${live ? " is-running" : ""}`}>
          {task.status.replaceAll("_", " ")}
        </span>
        <span className="chat-task-name">{task.name}</span>
        <span className="chat-task-meta">
          {task.turn === null ? "" : `turn ${task.turn}`}
          {task.mergeStrategy === "HUMAN_GATED" && !task.mergeDecision ? " · gated" : ""}
        </span>
        {task.mergeDecision ? (
          <span
            className={`chat-merge-decision is-${task.mergeDecision}`}
            data-testid="chat-task-decision"
            title={DECISIONS[task.mergeDecision].effect}
          >
            {DECISIONS[task.mergeDecision].label}
          </span>
        ) : null}
        {task.error ? <span className="chat-task-error">{task.error.message}</span> : null}
      </button>
    </li>
  );
}

function GroupReport({ report, named }: { report: ChatGroupReport; named?: boolean }): ReactElement {
  const done = report.tasks.filter((task) => task.status === "completed").length;
  return (
    <p className="chat-group-report" data-testid="chat-group-report" data-group-id={report.groupId}>
      {named ? <strong>{report.name} </strong> : null}
      Reported ({report.report === "all" ? "all done" : "first done"}): {done} of {report.tasks.length}{" "}
      completed · {STRATEGY_LABELS[report.mergeStrategy]}
    </p>
  );
}

function TaskGroup(props: {
  group: ChatTrayGroup;
  shownRunId: string | null;
  onOpen: (runId: string) => void;
}): ReactElement {
  const { group } = props;
  return (
    <li className="chat-group" data-testid="chat-task-group" data-group-id={group.groupId}>
      <div className="chat-group-head">
        <span className="chat-group-name">{group.name}</span>
        <span className="run-muted">
          {group.done}/{group.total} done
        </span>
        <progress className="chat-group-progress" max={group.total} value={group.done} />
      </div>
      {group.report ? <GroupReport report={group.report} /> : null}
      <ul className="chat-task-list">
        {group.tasks.map((task) => (
          <TaskItem
            key={task.taskId}
            task={task}
            shown={props.shownRunId === task.runId}
            onOpen={props.onOpen}
          />
        ))}
      </ul>
    </li>
  );
}

function MergeTaskLine({ task }: { task: MergeTask }): ReactElement {
  const preview = getPreviewText(task.result);
  return (
    <li className="chat-merge-task">
      <strong>{task.name}</strong> <span className="run-muted">{task.status}</span>
      {preview ? <code className="chat-merge-preview">{preview}</code> : null}
    </li>
  );
}

const DECISIONS = {
  approve: { label: "applied", effect: "Applied: the next turns see these results" },
  reject: { label: "rejected", effect: "Rejected: left out of the conversation" },
} as const;

/** A merge a person decided: Applied or Rejected, by whom and when, what it means, and the note. */
function DecidedMergeCard({ merge }: { merge: SessionDecidedMerge }): ReactElement {
  const decision = DECISIONS[merge.decision];
  const when = formatStartTime(new Date(merge.decidedAt).toISOString());
  const results = merge.tasks.length === 1 ? "1 result" : `${merge.tasks.length} results`;
  return (
    <li
      className={`chat-merge is-decided is-${merge.decision}`}
      data-testid="chat-merge-decided"
      data-merge-id={merge.mergeId}
      data-decision={merge.decision}
    >
      <div className="chat-merge-head">
        <strong>{merge.name}</strong>
        <span className={`chat-merge-decision is-${merge.decision}`} data-testid="chat-merge-decision">
          {decision.label}
        </span>
        <span className="run-muted" data-testid="chat-merge-decider">
          {merge.actor ? `by ${merge.actor} · ` : ""}
          {when}
        </span>
      </div>
      <p className="chat-merge-outcome">
        {results} ·{" "}
        {merge.decision === "approve" ? "the next turns see them" : "left out of the conversation"}
      </p>
      {merge.note ? (
        <p className="chat-merge-decided-note" data-testid="chat-merge-decided-note">
          {merge.note}
        </p>
      ) : null}
    </li>
  );
}

/** A merge waiting for a person: what the results are, a note, Apply or Reject. */
function MergeCard({ merge }: { merge: PendingMerge }): ReactElement {
  const editor = useEditor();
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const noteId = useId();
  const decideDenied = useDenied("runs:decide");
  const decide = async (decision: "approve" | "reject") => {
    setBusy(true);
    await editor.chats.getState().decideMerge(merge.mergeId, decision, note);
    setBusy(false);
  };
  return (
    <li className="chat-merge" data-testid="chat-merge" data-merge-id={merge.mergeId}>
      <div className="chat-merge-head">
        <strong>{merge.name}</strong>
        <span className="run-muted">
          {merge.tasks.length === 1 ? "1 result" : `${merge.tasks.length} results`}
          {merge.groupId ? " of a group" : ""} · {STRATEGY_LABELS[merge.strategy]}
        </span>
      </div>
      <ul className="chat-merge-tasks">
        {merge.tasks.map((task) => (
          <MergeTaskLine key={task.taskId} task={task} />
        ))}
      </ul>
      <label className="sr-only" htmlFor={noteId}>
        Note (sent with the decision)
      </label>
      <textarea
        id={noteId}
        className="input"
        rows={1}
        value={note}
        placeholder="Note (optional): why, or what to do instead"
        data-testid="chat-merge-note"
        onChange={(event) => setNote(event.target.value)}
      />
      <div className="approval-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="chat-merge-approve"
          disabled={busy || decideDenied !== null}
          title={decideDenied ?? "Let these results into the conversation: the next turn sees them"}
          onClick={() => void decide("approve")}
        >
          Apply
        </button>
        <button
          type="button"
          className="btn btn-small btn-reject"
          data-testid="chat-merge-reject"
          disabled={busy || decideDenied !== null}
          title={decideDenied ?? "Leave these results out of the conversation"}
          onClick={() => void decide("reject")}
        >
          Reject
        </button>
      </div>
    </li>
  );
}

/**
 * The session's tray: pending merges first (they wait for a person), then the decided ones (newest
 * first), then the tasks by group with their progress and report, then the tasks of no group. Each task
 * opens as a run on the canvas.
 */
export function ChatTray(props: {
  tray: ChatTrayModel;
  shownRunId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onOpenRun: (runId: string) => void;
}): ReactElement | null {
  const { tray, open } = props;
  if (tray.total === 0 && tray.merges.length === 0 && tray.orphanReports.length === 0) return null;
  return (
    <section
      className={`chat-tray${open ? " is-open" : ""}`}
      data-testid="chat-tray"
      aria-label="Tasks and merges"
    >
      <button
        type="button"
        className="chat-tray-toggle"
        aria-expanded={open}
        data-testid="chat-tray-toggle"
        onClick={() => props.onOpenChange(!open)}
      >
        <span className="chat-tray-caret" aria-hidden>
          {open ? "▾" : "▸"}
        </span>
        Tasks
        <span className="tab-count">{tray.total}</span>
        {tray.active > 0 ? <span className="run-muted">{tray.active} going</span> : null}
        {tray.merges.length > 0 ? (
          <span className="chat-tray-waiting">
            {tray.merges.length === 1 ? "1 merge waits" : `${tray.merges.length} merges wait`}
          </span>
        ) : null}
      </button>
      {open ? (
        <div className="chat-tray-body">
          {tray.merges.length > 0 ? (
            <ul className="chat-merges" aria-label="Pending merges">
              {tray.merges.map((merge) => (
                <MergeCard key={merge.mergeId} merge={merge} />
              ))}
            </ul>
          ) : null}
          {tray.decided.length > 0 ? (
            <ul className="chat-merges" aria-label="Decided merges">
              {tray.decided.map((merge) => (
                <DecidedMergeCard key={merge.mergeId} merge={merge} />
              ))}
            </ul>
          ) : null}
          {tray.groups.length > 0 ? (
            <ul className="chat-groups" aria-label="Task groups">
              {tray.groups.map((group) => (
                <TaskGroup
                  key={group.groupId}
                  group={group}
                  shownRunId={props.shownRunId}
                  onOpen={props.onOpenRun}
                />
              ))}
            </ul>
          ) : null}
          {tray.loose.length > 0 ? (
            <ul className="chat-task-list" aria-label="Tasks">
              {tray.loose.map((task) => (
                <TaskItem
                  key={task.taskId}
                  task={task}
                  shown={props.shownRunId === task.runId}
                  onOpen={props.onOpenRun}
                />
              ))}
            </ul>
          ) : null}
          {tray.orphanReports.map((report) => (
            <GroupReport key={report.seq} report={report} named />
          ))}
        </div>
      ) : null}
    </section>
  );
}
