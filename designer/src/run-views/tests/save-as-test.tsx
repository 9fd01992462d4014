import { TERMINAL_RUN_STATUSES } from "@waddle/protocol";
import { useState, type ReactElement } from "react";
import { getErrorMessage } from "../../api/api-error.js";
import { useEditor } from "../../editor/editor-context.js";
import { getRunPanelStore } from "../panel/run-panel-store.js";
import { useRunStore } from "../use-run-store.js";
import { getTestsStore } from "./tests-store.js";
import { useDenied } from "../../store/me-store.js";

type Saved = { kind: "saved"; name: string; count: number } | { kind: "error"; message: string };

/**
 * **Save as test** on a run that has ended (live or replayed, opened from History or a link): the server
 * makes a case of it (its tool results as mocks, the model's replies recorded, what it did as the
 * expectations), and the note says where it went, with a way to the Tests tab.
 */
export function SaveAsTest(): ReactElement | null {
  const editor = useEditor();
  const run = useRunStore((state) => state.run);
  const [saving, setSaving] = useState(false);
  const denied = useDenied("tests:write");
  const [saved, setSaved] = useState<{ runId: string; answer: Saved } | null>(null);
  if (!run || !TERMINAL_RUN_STATUSES.has(run.status) || run.purpose === "test") return null;
  const answer = saved?.runId === run.id ? saved.answer : null;
  const save = async () => {
    setSaving(true);
    try {
      const testCase = await editor.api.saveRunAsTest(run.agentId, { fromRunId: run.id });
      const tests = getTestsStore(editor);
      // the tab reads the suite again when it shows; a loaded one gets the case now
      let count = 1;
      if (tests.getState().agentId === run.agentId) {
        const cases = [...tests.getState().cases.filter((c) => c.id !== testCase.id), testCase];
        tests.setState({ cases });
        count = cases.length;
      } else {
        count = (await editor.api.getTestSuite(run.agentId)).cases.length;
      }
      setSaved({ runId: run.id, answer: { kind: "saved", name: testCase.name, count } });
    } catch (error) {
      setSaved({ runId: run.id, answer: { kind: "error", message: getErrorMessage(error) } });
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="save-as-test">
      <button
        type="button"
        className="btn btn-small"
        data-testid="save-as-test"
        disabled={saving || denied !== null}
        title={
          denied ??
          "Make a regression test of this run: its tool results become mocks, what it did the checks"
        }
        onClick={() => void save()}
      >
        {saving ? "Saving…" : "Save as test"}
      </button>
      {answer?.kind === "saved" ? (
        <span className="save-as-test-note" data-testid="save-as-test-saved" role="status">
          Saved as “{answer.name}”, case {answer.count} of the suite in the{" "}
          <button
            type="button"
            className="link-btn"
            data-testid="save-as-test-open"
            onClick={() => getRunPanelStore(editor).getState().set({ open: true, tab: "tests" })}
          >
            Tests tab
          </button>
          .
        </span>
      ) : answer?.kind === "error" ? (
        <span className="save-as-test-note is-error" role="alert">
          Not saved: {answer.message}
        </span>
      ) : null}
    </div>
  );
}
