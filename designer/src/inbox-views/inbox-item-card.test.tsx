import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { EditorContext } from "../editor/editor-context.js";
import { createTestEditor } from "../testing/create-test-editor.js";
import { makeInboxItem } from "../testing/fake-inbox.js";
import { InboxItemCard } from "./inbox-item-card.js";

// The permissions the signed-in key lacks (each test sets its own).
const denied = vi.hoisted(() => ({ permissions: new Set<string>() }));
vi.mock("../store/me-store.js", () => ({
  useDenied: (permission: string | undefined) =>
    permission !== undefined && denied.permissions.has(permission)
      ? `Your key (Rita) may not do this: it needs "${permission}".`
      : null,
  meStore: Object.assign(() => null, { getState: () => ({ me: null }) }),
}));

const now = Date.parse("2026-01-05T09:04:30Z");
const tagsOf = (html: string, testId: string) =>
  html.match(new RegExp(`<[a-z]+\\b[^>]*data-testid="${testId}"[^>]*>`, "g")) ?? [];

function render(item = makeInboxItem()) {
  return renderToString(
    <EditorContext.Provider value={createTestEditor()}>
      <InboxItemCard item={item} now={now} me="alice" keyNames={[]} />
    </EditorContext.Provider>,
  );
}

describe("an inbox item", () => {
  it("shows its agent, who started it, how long it has waited and its due countdown, with the inbox's buttons", () => {
    denied.permissions = new Set();
    const html = render(
      makeInboxItem({ dueAt: "2026-01-05T09:10:00Z", onTimeout: "approve", startedBy: "trigger:trg_1" }),
    );
    expect(tagsOf(html, "inbox-item")[0]).toContain('data-agent="mailer"');
    expect(html).toContain("trigger trg_1");
    expect(html).toMatch(/data-testid="inbox-waited"[^>]*>4 min</);
    expect(html).toContain("approves in 5:30");
    for (const testId of ["inbox-approve", "inbox-reject", "inbox-edit", "inbox-assign", "inbox-snooze"])
      expect(tagsOf(html, testId), testId).toHaveLength(1);
    expect(tagsOf(html, "approve-button")).toHaveLength(0);
  });

  it("says why a stuck run waits, from the item's message", () => {
    denied.permissions = new Set();
    const html = render(
      makeInboxItem({
        reason: "stuck",
        tool: undefined,
        argsPreview: undefined,
        message:
          "The run looks stuck: search_docs called 3 times with the same arguments. Approve to let it go on.",
      }),
    ).replace(/<!-- -->/g, "");
    expect(html).toContain("The run</strong> looks stuck");
    expect(html).toMatch(
      /data-testid="approval-pause-message"[^>]*>The run looks stuck: search_docs called 3 times/,
    );
  });

  it("turns deciding, assigning and snoozing off for a key that may not decide, saying why", () => {
    denied.permissions = new Set(["runs:decide"]);
    const html = render();
    for (const testId of ["inbox-approve", "inbox-reject", "inbox-assign", "inbox-snooze"]) {
      const [tag] = tagsOf(html, testId);
      expect(tag, testId).toMatch(/\sdisabled=""/);
      expect(tag, testId).toContain("may not do this: it needs &quot;runs:decide&quot;");
    }
  });
});
