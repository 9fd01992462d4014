import { applySessionEvents, createSessionRecord, SessionEvent } from "@waddle/protocol";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EditorContext } from "../../editor/editor-context.js";
import type { ChatGroupReport } from "../../chats/chat-types.js";
import { getChatTray } from "../../chats/get-chat-tray.js";
import { createTestEditor } from "../../testing/create-test-editor.js";
import { makeTaskSessionLog } from "../../testing/make-session-events.js";
import { ChatTray } from "./chat-tray.js";

const log = makeTaskSessionLog();
const record = applySessionEvents(
  createSessionRecord({
    id: "ses_test1",
    agentId: "research-agent",
    agentVersion: 1,
    createdAt: "2026-01-05T09:00:00Z",
  }),
  log,
);
const reports: ChatGroupReport[] = log.flatMap((event) =>
  event.type === "task_group_report" ? [{ seq: event.seq, ts: event.ts, ...event.data }] : [],
);

// React's server render separates text parts with empty comments
const render = (options: { open: boolean; shownRunId?: string | null }) =>
  renderToString(
    <EditorContext.Provider value={createTestEditor()}>
      <ChatTray
        tray={getChatTray(record, reports)}
        shownRunId={options.shownRunId ?? null}
        open={options.open}
        onOpenChange={() => undefined}
        onOpenRun={() => undefined}
      />
    </EditorContext.Provider>,
  ).replaceAll("<!-- -->", "");

/** The values of one attribute on every element with this testid, in document order (a node test: no DOM). */
function getAttributes(html: string, testId: string, attribute: string): string[] {
  const tags = html.match(new RegExp(`<[a-z]+\\b[^>]*data-testid="${testId}"[^>]*>`, "g")) ?? [];
  return tags.map((tag) => new RegExp(`\\s${attribute}="([^"]*)"`).exec(tag)?.[1] ?? "");
}

describe("ChatTray", () => {
  it("renders the folded session's tasks with their status, its group report and its pending merge", () => {
    const html = render({ open: true, shownRunId: "run_t3" });
    expect(getAttributes(html, "chat-task-item", "data-task-status")).toEqual([
      "completed",
      "failed",
      "completed",
    ]);
    expect(getAttributes(html, "chat-task-item", "data-run-id")).toEqual(["run_t1", "run_t2", "run_t3"]);
    expect(getAttributes(html, "chat-task-group", "data-group-id")).toEqual(["g_research"]);
    expect(html).toContain("2/2 done");
    expect(html).toContain("pricing API timed out");
    expect(getAttributes(html, "chat-group-report", "data-group-id")).toEqual(["g_research"]);
    expect(getAttributes(html, "chat-merge", "data-merge-id")).toEqual(["m_research"]);
    expect(getAttributes(html, "chat-merge-approve", "type")).toEqual(["button"]);
    expect(getAttributes(html, "chat-merge-reject", "type")).toEqual(["button"]);
    expect(html).toContain("1 merge waits");
    // the task on the canvas is marked
    expect(html).toMatch(/class="chat-task is-shown"[^>]*data-task-id="t3"/);
  });

  it("after Apply or Reject, shows the decision, the note and who decided, and marks the tasks", () => {
    const decide = (decision: "approve" | "reject", extra: { note?: string; actor?: string }) => {
      const decided = applySessionEvents(record, [
        SessionEvent.parse({
          sessionId: "ses_test1",
          seq: record.lastSeq + 1,
          ts: Date.UTC(2026, 0, 5, 10, 30),
          type: "merge_decided",
          data: { mergeId: "m_research", decision, ...extra },
        }),
      ]);
      return renderToString(
        <EditorContext.Provider value={createTestEditor()}>
          <ChatTray
            tray={getChatTray(decided, reports)}
            shownRunId={null}
            open
            onOpenChange={() => undefined}
            onOpenRun={() => undefined}
          />
        </EditorContext.Provider>,
      ).replaceAll("<!-- -->", "");
    };
    const applied = decide("approve", { note: "checked the sources", actor: "Edwina" });
    expect(getAttributes(applied, "chat-merge", "data-merge-id")).toEqual([]);
    expect(getAttributes(applied, "chat-merge-decided", "data-decision")).toEqual(["approve"]);
    expect(applied).toMatch(/data-testid="chat-merge-decision"[^>]*>applied</);
    expect(applied).toMatch(/data-testid="chat-merge-decider"[^>]*>by Edwina · /);
    expect(applied).toMatch(/data-testid="chat-merge-decided-note"[^>]*>checked the sources</);
    expect(applied).toContain("the next turns see them");
    const rejected = decide("reject", { note: "wrong market" });
    expect(getAttributes(rejected, "chat-merge-decided", "data-decision")).toEqual(["reject"]);
    expect(rejected).toMatch(/data-testid="chat-merge-decision"[^>]*>rejected</);
    expect(rejected).toContain("left out of the conversation");
    expect(rejected).toMatch(/data-testid="chat-merge-decided-note"[^>]*>wrong market</);
    // the two decisions no longer look alike: each held task says how it was decided
    const marks = (html: string) =>
      [...html.matchAll(/data-testid="chat-task-decision"[^>]*>([a-z]+)</g)].map((match) => match[1]);
    expect(marks(applied)).toEqual(["applied", "applied"]);
    expect(marks(rejected)).toEqual(["rejected", "rejected"]);
  });

  it("folded, shows only its counts", () => {
    const html = render({ open: false });
    expect(getAttributes(html, "chat-task-item", "data-task-status")).toEqual([]);
    expect(getAttributes(html, "chat-tray-toggle", "aria-expanded")).toEqual(["false"]);
    expect(html).toContain("1 merge waits");
  });
});
