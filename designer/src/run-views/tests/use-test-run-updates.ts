import { TestRunRecord, WatchAgentAck } from "@waddle/protocol";
import { useEffect } from "react";
import { io } from "socket.io-client";
import { getStoredToken } from "../../api/token-storage.js";
import { useEditor } from "../../editor/editor-context.js";
import { getTestsStore } from "./tests-store.js";

/**
 * Keeps the Tests tab's test runs live while it shows: a socket of its own (so that its `watch_agent`
 * never undoes the run list's or the chats'), `test_run_updated` checked with the protocol's schema. On
 * every (re)connection the running test runs are read again, for what was sent while it was away.
 */
export function useTestRunUpdates(agentId: string | null): void {
  const editor = useEditor();
  useEffect(() => {
    if (!agentId) return;
    const store = getTestsStore(editor);
    const socket = io("", {
      auth: (callback: (auth: { token?: string }) => void) => {
        const token = getStoredToken();
        callback(token ? { token } : {});
      },
      transports: ["websocket", "polling"],
    });
    socket.on("connect", () => {
      socket.emit("watch_agent", { agentId }, (raw: unknown) => {
        const ack = WatchAgentAck.safeParse(raw);
        if (!ack.success || !ack.data.ok) {
          console.warn(`Cannot watch the test runs of agent "${agentId}".`);
          return;
        }
        const running = store.getState().testRuns.filter((entry) => entry.status === "running");
        for (const entry of running)
          void editor.api.getTestRun(entry.id).then(store.getState().applyRecord, () => undefined);
      });
    });
    socket.on("test_run_updated", (raw: unknown) => {
      const parsed = TestRunRecord.safeParse(raw);
      if (parsed.success) store.getState().applyRecord(parsed.data);
    });
    return () => {
      socket.disconnect();
    };
  }, [agentId, editor]);
}
