import { describe, expect, it } from "vitest";
import { FakeRunApi, makeRunRecord } from "../testing/fake-run-api.js";
import { FakeRunTransport } from "./transport/fake-run-transport.js";
import { createRunStore } from "./run-store.js";

/** A run store over fakes, with one real run and one test case's run of agent "a" on the fake server. */
function setup() {
  const transport = new FakeRunTransport();
  const api = new FakeRunApi(transport);
  const store = createRunStore({ api, transport, scheduleFrame: (callback) => callback(), now: () => 0 });
  api.addRun(makeRunRecord({ id: "real", agentId: "a", status: "finished", createdAt: "2025-01-01" }));
  api.addRun({
    ...makeRunRecord({ id: "case-run", agentId: "a", status: "cancelled", createdAt: "2025-01-02" }),
    purpose: "test",
  });
  /** As the server does: change the run, then tell its watchers. */
  const update = (run: ReturnType<typeof makeRunRecord>) => {
    api.runs.set(run.id, run);
    transport.pushRunUpdated(run);
  };
  const ids = () => store.getState().runs.map((run) => run.id);
  return { api, store, update, ids };
}

describe("createRunStore: test cases' runs in the agent's run list", () => {
  it("are left out, listed or live, until test runs are shown", async () => {
    const { api, store, update, ids } = setup();
    await store.getState().watchAgent("a");
    expect(ids()).toEqual(["real"]);
    // a suite running now: its runs come in live, and stay out of History
    update({ ...makeRunRecord({ id: "live-case", agentId: "a", createdAt: "2025-01-03" }), purpose: "test" });
    update({
      ...makeRunRecord({ id: "live-case", agentId: "a", status: "paused", createdAt: "2025-01-03" }),
      purpose: "test",
    });
    expect(ids()).toEqual(["real"]);

    await store.getState().setShowTestRuns(true);
    expect(store.getState().showTestRuns).toBe(true);
    expect(api.calls.at(-1)).toBe("listRuns a  purpose=all");
    expect(ids()).toEqual(["live-case", "case-run", "real"]);
    update({
      ...makeRunRecord({ id: "live-case", agentId: "a", status: "cancelled", createdAt: "2025-01-03" }),
      purpose: "test",
    });
    expect(store.getState().runs[0]).toMatchObject({ id: "live-case", status: "cancelled" });

    await store.getState().setShowTestRuns(false);
    expect(ids()).toEqual(["real"]);
  });

  it("opening a test case's run does not put it in a list that hides them", async () => {
    const { store, ids } = setup();
    await store.getState().watchAgent("a");
    await store.getState().openRun("case-run");
    expect(store.getState().runId).toBe("case-run");
    expect(ids()).toEqual(["real"]);
  });
});
