import { describe, expect, it } from "vitest";
import { makeRunRecord } from "../testing/fake-run-api.js";
import { createRunView } from "../runs/fold/apply-run-event.js";
import type { CompareSide } from "../runs/run-store-state.js";
import { getShownStatuses } from "./get-shown-statuses.js";

function side(runId: string, status: "finished" | "failed", agentVersion: number): CompareSide {
  return {
    runId,
    run: makeRunRecord({ id: runId, status, agentVersion }),
    spec: null,
    view: createRunView(runId),
  };
}

describe("getShownStatuses", () => {
  it("shows each compared run's own status, never the paused run open underneath", () => {
    const statuses = getShownStatuses({
      mode: "compare",
      status: "paused",
      version: 1,
      compare: { left: side("run-a", "finished", 1), right: side("run-b", "finished", 2) },
    });
    expect(statuses).toEqual([
      { side: "A", status: "finished", version: 1 },
      { side: "B", status: "finished", version: 2 },
    ]);
    expect(statuses.map((shown) => shown.status)).not.toContain("paused");
  });

  it("shows nothing while the comparison loads, and the shown run's status otherwise", () => {
    expect(
      getShownStatuses({
        mode: "compare",
        status: "paused",
        version: 1,
        compare: { left: null, right: null },
      }),
    ).toEqual([]);
    expect(getShownStatuses({ mode: "replay", status: "finished", version: 3, compare: null })).toEqual([
      { side: null, status: "finished", version: 3 },
    ]);
    expect(getShownStatuses({ mode: "edit", status: "paused", version: 1, compare: null })).toEqual([]);
  });
});
