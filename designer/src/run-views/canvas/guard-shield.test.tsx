import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { GuardMark, NodeRunView } from "../../runs/fold/run-view.js";
import { RunNodeStatus } from "./run-node-status.js";

vi.mock("../../store/me-store.js", () => ({ useDenied: () => null }));

const mark = (patch: Partial<GuardMark>): GuardMark => ({
  guard: "pii",
  on: "tool_result",
  check: "pii",
  verdict: "fail",
  action: "redact",
  decisions: 3,
  acted: 3,
  findings: [
    { kind: "email", count: 3 },
    { kind: "card", count: 3 },
  ],
  seq: 12,
  ...patch,
});
const node = (guards: GuardMark[]): NodeRunView => ({
  state: "succeeded",
  calls: 3,
  failures: 0,
  totalMs: 30,
  attempt: 1,
  lastCallId: "c3",
  changedSeq: 12,
  guards,
});
const render = (guards: GuardMark[]) =>
  renderToString(<RunNodeStatus node={node(guards)} tool="lookup" />).replace(/<!-- -->/g, "");

describe("a tool node's guard shield", () => {
  it("shows the strongest decision, and every guard with what it found in its title", () => {
    const html = render([
      mark({}),
      mark({
        guard: "words",
        check: "deny_words",
        action: "block",
        acted: 1,
        findings: [{ kind: "word", count: 1 }],
        message: "No codenames.",
      }),
    ]);
    const shield = html.match(/<span[^>]*data-testid="guard-shield"[^>]*>/)?.[0] ?? "";
    expect(shield).toContain('data-guard="words"');
    expect(shield).toContain('data-verdict="fail"');
    expect(shield).toContain('data-action="block"');
    expect(shield).toContain(
      "Guard pii redacted 3 email, 3 card in lookup&#x27;s result (3 of 3 checks acted)",
    );
    expect(shield).toContain("Guard words blocked lookup&#x27;s result (1 word): No codenames.");
    expect(html).toMatch(/data-testid="guard-shield"[^>]*>.*blocked<\/span>/);
  });

  it("shows none for guards that only passed", () => {
    expect(render([mark({ verdict: "pass", action: "none", acted: 0, findings: [] })])).not.toContain(
      "guard-shield",
    );
  });
});
