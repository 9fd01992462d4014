import { describe, expect, it } from "vitest";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { createTestEditor } from "../testing/create-test-editor.js";
import { getRunPanelStore } from "./panel/run-panel-store.js";
import { startRunFromPanel } from "./run-actions.js";

/** An editor on a saved agent whose server answers POST /api/runs (and nothing after it). */
function setup() {
  const { fetcher, calls } = createRecordingFetch(({ method, url }) =>
    method === "POST" && url === "/api/runs"
      ? { status: 202, body: { runId: "run_1" } }
      : { status: 404, body: { code: "not_found", message: url } },
  );
  const editor = createTestEditor({ fetch: fetcher });
  editor.document
    .getState()
    .load({ spec: editor.document.getState().spec, agentId: "test-agent", version: 4 });
  getRunPanelStore(editor).getState().set({ query: "hello", queryAgentId: "test-agent" });
  const sent = () => calls.filter((call) => call.url === "/api/runs").map((call) => call.body);
  return { editor, sent };
}

describe("startRunFromPanel", () => {
  it("runs the latest save by default, and the channel or version picked for the agent", async () => {
    const { editor, sent } = setup();
    await startRunFromPanel(editor, { save: false });
    const panel = getRunPanelStore(editor).getState();
    panel.set({ target: { kind: "channel", channel: "staging" }, targetAgentId: "test-agent" });
    await startRunFromPanel(editor, { save: false });
    panel.set({ target: { kind: "version", version: 2 }, targetAgentId: "test-agent" });
    await startRunFromPanel(editor, { save: false });
    // a choice made for another agent does not carry over
    panel.set({ target: { kind: "version", version: 2 }, targetAgentId: "other-agent" });
    await startRunFromPanel(editor, { save: false });
    expect(sent()).toEqual([
      { agentId: "test-agent", query: "hello", channel: "latest" },
      { agentId: "test-agent", query: "hello", channel: "staging" },
      { agentId: "test-agent", query: "hello", agentVersion: 2 },
      { agentId: "test-agent", query: "hello", channel: "latest" },
    ]);
  });
});
