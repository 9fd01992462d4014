import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { TimelineEntry } from "../../runs/fold/run-view.js";
import { RunTimeline } from "./run-timeline.js";

vi.mock("../../store/me-store.js", () => ({ useDenied: () => null }));

const entry = (seq: number, kind: TimelineEntry["kind"], title: string): TimelineEntry => ({
  seq,
  step: 0,
  ts: seq,
  kind,
  title,
});

describe("the run timeline", () => {
  it("lets the lines that explain (stuck, guards) wrap, and keeps the others one line high", () => {
    const html = renderToString(
      <RunTimeline
        timeline={[
          entry(1, "tool", "search_docs done"),
          entry(
            2,
            "stuck",
            "Stuck: search_docs called 3 times with the same arguments → finished with the best answer so far",
          ),
          entry(3, "guard", "Guard pii redacted 1 email, 1 card in lookup's result"),
        ]}
        steps={[]}
        selectedSeq={null}
        onSelect={() => undefined}
        follow={false}
      />,
    );
    const rows = html.match(/<div id="run-timeline-\d+"[^>]*>/g) ?? [];
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('style="height:28px"');
    expect(rows[0]).not.toContain("is-wrapped");
    for (const row of rows.slice(1)) {
      expect(row).toContain("is-wrapped");
      expect(row).toContain('style="min-height:28px"');
    }
    expect(html).toContain("Guard pii redacted 1 email, 1 card in lookup&#x27;s result");
  });
});
