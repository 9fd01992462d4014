import { useEffect } from "react";
import { useEditor } from "../../editor/editor-context.js";
import { getTestsStore } from "./tests-store.js";

/**
 * Keeps the Tests tab's test runs live while it shows: the agent's `test_run_updated` messages, heard over
 * the editor's one socket connection (its `watch_agent` shared with the run list and the chats). Whenever
 * the server acknowledges the watch (after every reconnection too), the running test runs are read again,
 * for what was sent while the connection was away.
 */
export function useTestRunUpdates(agentId: string | null): void {
  const editor = useEditor();
  useEffect(() => {
    if (!agentId) return;
    const store = getTestsStore(editor);
    return editor.connection.agents.watch(agentId, "test_run_updated", {
      onMessage: (record) => store.getState().applyRecord(record),
      onWatched: () => {
        const running = store.getState().testRuns.filter((entry) => entry.status === "running");
        for (const entry of running)
          void editor.api.getTestRun(entry.id).then(store.getState().applyRecord, () => undefined);
      },
    });
  }, [agentId, editor]);
}
