import type { GuardCheck } from "@waddle/protocol";
import { useEffect, useId, useRef, useState, type ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import {
  createGuardSampleChecker,
  IDLE_SAMPLE,
  type GuardSampleChecker,
  type GuardSampleState,
} from "../guards/guard-sample-checker.js";
import { formatGuardFindings } from "../util/format-guard-findings.js";
import { formatDuration } from "../util/format-metrics.js";
import { useDenied } from "../store/me-store.js";

const VERDICT_WORDS = { pass: "Passes", fail: "Fails", error: "The check failed to run" } as const;

/** Checks `check` on `text` through the server as typing pauses; the latest answer wins. */
function useGuardSample(check: GuardCheck, text: string): GuardSampleState {
  const editor = useEditor();
  const agentId = useDocument((state) => state.agentId);
  const [state, setState] = useState<GuardSampleState>(IDLE_SAMPLE);
  const checker = useRef<GuardSampleChecker | null>(null);
  useEffect(() => {
    const made = createGuardSampleChecker({ api: editor.api, onChange: setState });
    checker.current = made;
    return () => made.dispose();
  }, [editor]);
  // the check's options by value: a new object with the same options does not check again
  const checkKey = JSON.stringify(check);
  useEffect(() => {
    checker.current?.request({ check, text, agentId: agentId ?? undefined });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [checkKey, text, agentId]);
  return state;
}

/**
 * A guard's sample box: type or paste a text and see, live, what the check decides (`POST
 * /api/guards/check`): the verdict, what it found by kind and count, and the text as redact would leave it.
 */
export function GuardSample({ check, name }: { check: GuardCheck; name: string }): ReactElement {
  const [text, setText] = useState("");
  const id = useId();
  // the route needs tools:test, as a tool's test call does: a key without it sees the box off, and why
  const denied = useDenied("tools:test");
  const state = useGuardSample(check, text);
  const { result } = state;
  const findings = result ? formatGuardFindings(result.findings) : "";
  return (
    <div className="guard-sample" data-status={state.status}>
      <label className="field-label" htmlFor={id}>
        Try it on a sample
      </label>
      <textarea
        id={id}
        className="input mono"
        rows={3}
        value={text}
        placeholder="Paste a text as the guard would see it, e.g. Reach Ana at ana@example.com"
        data-testid="guard-sample-input"
        aria-label={`Sample text for guard ${name}`}
        disabled={denied !== null}
        title={denied ?? undefined}
        onChange={(event) => setText(event.target.value)}
      />
      {state.status === "failed" ? (
        <p className="field-error" role="alert" data-testid="guard-sample-error">
          Cannot check the sample: {state.error}
        </p>
      ) : result ? (
        <div
          className={`guard-sample-result${state.status === "checking" ? " is-stale" : ""}`}
          aria-live="polite"
        >
          <p
            className={`guard-sample-verdict verdict-${result.verdict}`}
            data-testid="guard-sample-verdict"
            data-verdict={result.verdict}
          >
            <strong>{VERDICT_WORDS[result.verdict]}</strong>
            {findings ? ` · found ${findings}` : result.verdict === "pass" ? " · nothing found" : ""}
            {result.message ? ` · ${result.message}` : ""}
            <span className="guard-sample-time">
              {" "}
              {result.durationMs < 1 ? "under 1 ms" : formatDuration(result.durationMs)}
            </span>
          </p>
          {result.redacted !== undefined && result.redacted !== text ? (
            <>
              <span className="field-label">After redact</span>
              <pre className="guard-sample-redacted" data-testid="guard-sample-redacted">
                {result.redacted}
              </pre>
            </>
          ) : null}
        </div>
      ) : state.status === "checking" ? (
        <p className="field-hint" role="status">
          Checking…
        </p>
      ) : (
        <p className="field-hint">{denied ?? "Nothing checked yet: the result shows here as you type."}</p>
      )}
    </div>
  );
}
