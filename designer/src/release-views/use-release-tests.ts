import type { TestRunRecord } from "@waddle/protocol";
import { useCallback, useEffect, useState } from "react";
import { getErrorMessage } from "../api/api-error.js";
import { useEditor } from "../editor/editor-context.js";

export interface ReleaseTests {
  /** Cases in the agent's suite (null: still reading). */
  caseCount: number | null;
  /** The newest test run of the version, whole, kept live while it runs. */
  record: TestRunRecord | null;
  error: string | null;
  /** Runs the suite on the version now, without releasing (a flaky failure, a check before Release). */
  runAgain(): Promise<void>;
  /** Shows this test run (the gate's, named by a refusal). */
  show(testRunId: string): Promise<void>;
}

const isNewer = (next: TestRunRecord, current: TestRunRecord | null) =>
  current === null || next.id === current.id || next.createdAt >= current.createdAt;

/**
 * The agent's suite as run on `version`: its newest test run, read once, then followed live through the
 * agent's `test_run_updated` (the editor's one socket): the gate's run of a release shows as it goes.
 */
export function useReleaseTests(agentId: string, version: number | null): ReleaseTests {
  const editor = useEditor();
  const [caseCount, setCaseCount] = useState<number | null>(null);
  const [record, setRecord] = useState<TestRunRecord | null>(null);
  const [error, setError] = useState<string | null>(null);

  const take = useCallback(
    (next: TestRunRecord) => {
      if (next.agentVersion !== version) return;
      setRecord((current) => (isNewer(next, current) ? next : current));
    },
    [version],
  );

  useEffect(() => {
    setRecord(null);
    setError(null);
    if (version === null) return;
    let live = true;
    const read = async () => {
      const [suite, runs] = await Promise.all([
        editor.api.getTestSuite(agentId),
        editor.api.listTestRuns(agentId),
      ]);
      if (!live) return;
      setCaseCount(suite.cases.length);
      const newest = runs.find((entry) => entry.agentVersion === version);
      if (newest) {
        const whole = await editor.api.getTestRun(newest.id);
        if (live) take(whole);
      }
    };
    read().catch((caught: unknown) => {
      if (!live) return;
      setCaseCount((count) => count ?? 0);
      setError(`Cannot read the tests: ${getErrorMessage(caught)}`);
    });
    const stop = editor.connection.agents.watch(agentId, "test_run_updated", { onMessage: take });
    return () => {
      live = false;
      stop();
    };
  }, [agentId, version, editor, take]);

  const show = useCallback(
    async (testRunId: string) => {
      try {
        take(await editor.api.getTestRun(testRunId));
      } catch (caught) {
        setError(getErrorMessage(caught));
      }
    },
    [editor, take],
  );

  const runAgain = useCallback(async () => {
    if (version === null) return;
    setError(null);
    try {
      const { testRunId } = await editor.api.startTestRun(agentId, { agentVersion: version });
      await show(testRunId);
    } catch (caught) {
      setError(getErrorMessage(caught));
    }
  }, [agentId, version, editor, show]);

  return { caseCount, record, error, runAgain, show };
}
