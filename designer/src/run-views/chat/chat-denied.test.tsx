import { applySessionEvents, createSessionRecord } from "@waddle/protocol";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { EditorContext } from "../../editor/editor-context.js";
import { getChatTray } from "../../chats/get-chat-tray.js";
import { createTestEditor } from "../../testing/create-test-editor.js";
import { makeTaskSessionLog } from "../../testing/make-session-events.js";
import { ChatComposer } from "./chat-composer.js";
import { ChatTray } from "./chat-tray.js";

// The permissions the signed-in key lacks (each test sets its own).
const denied = vi.hoisted(() => ({ permissions: new Set<string>() }));
vi.mock("../../store/me-store.js", () => ({
  useDenied: (permission: string | undefined) =>
    permission !== undefined && denied.permissions.has(permission)
      ? `Your key (Rita) may not do this: it needs "${permission}".`
      : null,
}));

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

/** The opening tag of every element with this testid. */
const tagsOf = (html: string, testId: string) =>
  html.match(new RegExp(`<[a-z]+\\b[^>]*data-testid="${testId}"[^>]*>`, "g")) ?? [];

describe("chat controls a key may not use", () => {
  it("turns a merge's Apply and Reject off for a runner without canDecide, and says why on hover", () => {
    denied.permissions = new Set(["runs:decide"]);
    const html = renderToString(
      <EditorContext.Provider value={createTestEditor()}>
        <ChatTray
          tray={getChatTray(record, [])}
          shownRunId={null}
          open
          onOpenChange={() => undefined}
          onOpenRun={() => undefined}
        />
      </EditorContext.Provider>,
    );
    for (const testId of ["chat-merge-approve", "chat-merge-reject"]) {
      const [tag] = tagsOf(html, testId);
      expect(tag, testId).toMatch(/\sdisabled=""/);
      expect(tag, testId).toContain("may not do this: it needs &quot;runs:decide&quot;");
    }
  });

  it("turns Send off for a key that may not start runs, and only for it", () => {
    const send = () =>
      tagsOf(
        renderToString(
          <EditorContext.Provider value={createTestEditor()}>
            <ChatComposer lastTurn={null} />
          </EditorContext.Provider>,
        ),
        "chat-send",
      )[0];
    denied.permissions = new Set(["runs:start"]);
    expect(send()).toContain("may not do this: it needs &quot;runs:start&quot;");
    denied.permissions = new Set(["runs:decide"]);
    expect(send()).not.toContain("may not do this");
  });
});
