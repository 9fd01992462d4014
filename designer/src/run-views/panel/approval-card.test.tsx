import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { ApprovalCard, type PendingRunPause } from "./approval-card.js";

vi.mock("../../store/me-store.js", () => ({ useDenied: () => null }));

const render = (pause: Partial<PendingRunPause>) =>
  renderToString(
    <ApprovalCard
      pause={{
        reason: "approval_required",
        payload: {},
        resumeToken: "tok",
        tool: null,
        args: undefined,
        callId: null,
        nodeStateBefore: null,
        ...pause,
      }}
      tool={undefined}
      editing={false}
      onEditingChange={() => undefined}
      onDecide={async () => true}
    />,
  );

describe("the approval card of a stuck or guarded run", () => {
  it("shows the guard, what it held and what it found, in counts", () => {
    const html = render({
      reason: "guard",
      tool: "lookup",
      payload: {
        guard: "pii",
        on: "tool_result",
        tool: "lookup",
        findings: [
          { kind: "email", count: 1 },
          { kind: "card", count: 1 },
        ],
        message: "Personal data. Approve to let lookup's result through as it is, reject to stop it.",
      },
    });
    expect(html).toContain("is held by a guard");
    const text = html.replace(/<!-- -->/g, "");
    expect(text).toMatch(/data-testid="approval-guard" data-guard="pii"/);
    expect(text).toContain("<strong>Guard pii</strong> · lookup&#x27;s result · found 1 email, 1 card");
    expect(text).toMatch(/data-testid="approval-pause-message"[^>]*>Personal data. Approve to let/);
  });

  it("shows the stuck-run breaker's message", () => {
    const html = render({
      reason: "stuck",
      payload: { message: "The run looks stuck: search_docs called 3 times. Approve to let it go on." },
    });
    expect(html.replace(/<!-- -->/g, "")).toContain("The run</strong> looks stuck");
    expect(html).toMatch(
      /data-testid="approval-pause-message"[^>]*>The run looks stuck: search_docs called 3 times/,
    );
  });
});
