import { parseJson, type AgentVersionSummary, type JsonSchema } from "@waddle/protocol";
import { useEffect, useId, useMemo, useState, type ReactElement } from "react";
import { ApiError } from "../../api/api-error.js";
import { Dialog } from "../../components/dialog.js";
import { useEditor } from "../../editor/editor-context.js";
import { ArgsForm } from "../panel/args-form.js";
import {
  getArgsFormFields,
  getArgsFormValues,
  hasArgsFields,
  readArgsForm,
  type ArgsFormValues,
} from "../panel/args-form-model.js";
import { getRunPanelStore } from "../panel/run-panel-store.js";
import { useShownRunQuery } from "../panel/run-summary.js";
import { useRunStore } from "../use-run-store.js";
import {
  getForkEditOptions,
  getInitialEditText,
  readForkEdit,
  type ForkEditChoice,
  type ForkTarget,
} from "./fork-edit-model.js";

interface ForkError {
  message: string;
  issues: string[];
}

/**
 * **Fork from here**: a new run that copies this run's steps before `target.step` (not executed again),
 * changes what the step is made of (the tool's result or args, as a form from its schema or raw JSON; the
 * model's reply; the query at step 0) and runs on a chosen version, reusing identical calls.
 */
export function ForkDialog({ target, onClose }: { target: ForkTarget; onClose: () => void }): ReactElement {
  const editor = useEditor();
  const view = useRunStore((state) => state.view);
  const runQuery = useShownRunQuery(view);
  const spec = useRunStore((state) => state.spec);
  const run = useRunStore((state) => state.run);
  const call = target.callId ? (view?.calls[target.callId] ?? null) : null;
  const options = useMemo(() => getForkEditOptions({ step: target.step, call }), [target.step, call]);
  const [choice, setChoice] = useState<ForkEditChoice>("none");
  const [text, setText] = useState("");
  const [mode, setMode] = useState<"form" | "json">("form");
  const [values, setValues] = useState<ArgsFormValues>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [versions, setVersions] = useState<AgentVersionSummary[]>([]);
  const [version, setVersion] = useState<number | null>(run?.agentVersion ?? view?.agentVersion ?? null);
  const [reuse, setReuse] = useState(true);
  const [error, setError] = useState<ForkError | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { kind: useId(), text: useId(), version: useId() };
  const agentId = run?.agentId ?? view?.agentId ?? null;

  useEffect(() => {
    if (!agentId) return;
    let live = true;
    editor.api.listVersions(agentId).then(
      (list) => live && setVersions(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [editor, agentId]);

  const tool = call ? spec?.tools.find((item) => item.name === call.tool) : undefined;
  const schema: JsonSchema | undefined =
    choice === "args" ? tool?.argsSchema : choice === "observation" ? tool?.outSchema : undefined;
  const fields = useMemo(
    () => (schema && hasArgsFields(schema) ? getArgsFormFields(schema, safeParse(text)) : []),
    // the fields depend on the schema; the proposed value only picks multi-line boxes at first
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [schema],
  );
  const useForm = fields.length > 0 && mode === "form";

  const choose = (next: ForkEditChoice) => {
    setChoice(next);
    setError(null);
    setFieldErrors({});
    const initial = getInitialEditText({ choice: next, call, query: runQuery });
    setText(initial);
    const nextTool =
      next === "args" ? tool?.argsSchema : next === "observation" ? tool?.outSchema : undefined;
    if (nextTool && hasArgsFields(nextTool)) {
      setValues(getArgsFormValues(getArgsFormFields(nextTool, safeParse(initial)), safeParse(initial)));
      setMode("form");
    } else setMode("json");
  };

  /** The edit's JSON text: from the form when it shows, else the raw box. */
  const currentText = (): string | null => {
    if (!useForm) return text;
    const read = readArgsForm({ fields, values, base: safeParse(text) });
    if (!read.ok) {
      setFieldErrors(read.errors);
      return null;
    }
    setFieldErrors({});
    return JSON.stringify(read.args, null, 2);
  };

  const switchMode = (next: "form" | "json") => {
    if (next === mode) return;
    if (next === "json") {
      const current = currentText();
      if (current === null) return;
      setText(current);
    } else {
      const value = safeParse(text);
      setValues(getArgsFormValues(fields, value));
    }
    setMode(next);
  };

  const submit = async () => {
    if (!view) return;
    const edited = choice === "observation" || choice === "args" ? currentText() : text;
    if (edited === null) return;
    const read = readForkEdit(choice, edited);
    if (!read.ok) return setError({ message: read.error, issues: [] });
    setBusy(true);
    setError(null);
    try {
      const { runId } = await editor.api.forkRun(target.runId, {
        fromStep: target.step,
        ...(read.edit ? { edit: read.edit } : {}),
        ...(version !== null ? { agentVersion: version } : {}),
        reuse: reuse ? "recorded" : "none",
      });
      onClose();
      getRunPanelStore(editor).getState().set({ tab: "run", open: true });
      await editor.runs.getState().openRun(runId);
    } catch (caught) {
      setError(getForkError(caught));
    } finally {
      setBusy(false);
    }
  };

  const stepLabel = target.step + 1;
  return (
    <Dialog
      title={`Fork from step ${stepLabel}`}
      testId="fork-dialog"
      onClose={onClose}
      size="large"
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary"
            data-testid="fork-run"
            disabled={busy || !view}
            onClick={() => void submit()}
          >
            {busy ? "Forking…" : "Fork and run"}
          </button>
        </>
      }
    >
      <p className="explain">
        {target.step === 0
          ? "The fork starts this run again from its first step."
          : `${target.step === 1 ? "Step 1 is" : `Steps 1–${target.step} are`} copied from this run, not run again. The fork goes on from step ${stepLabel}.`}{" "}
        Calls that are provably the same as this run's (an identical model request, a pure or read tool with
        the same args) are served from its record.
      </p>
      <div className="fork-grid">
        <div className="field">
          <label className="field-label" htmlFor={ids.kind}>
            Change at step {stepLabel}
          </label>
          <select
            id={ids.kind}
            className="input"
            data-testid="fork-edit-kind"
            value={choice}
            onChange={(event) => choose(event.target.value as ForkEditChoice)}
          >
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.version}>
            Run on version
          </label>
          <select
            id={ids.version}
            className="input"
            data-testid="fork-version"
            value={version ?? ""}
            onChange={(event) => setVersion(Number(event.target.value))}
          >
            {(versions.length > 0 ? versions.map((item) => item.version) : [version ?? 1])
              .slice()
              .sort((a, b) => b - a)
              .map((item) => (
                <option key={item} value={item}>
                  {getVersionLabel(item, {
                    ran: run?.agentVersion,
                    latest: Math.max(...versions.map((entry) => entry.version)),
                  })}
                </option>
              ))}
          </select>
        </div>
      </div>
      {choice === "observation" || choice === "args" ? (
        <div className="fork-edit">
          {fields.length > 0 ? (
            <div className="segmented fork-edit-modes" role="radiogroup" aria-label="Edit as">
              <button
                type="button"
                role="radio"
                className={`segment${mode === "form" ? " is-active" : ""}`}
                aria-checked={mode === "form"}
                data-testid="fork-edit-form-mode"
                onClick={() => switchMode("form")}
              >
                Form
              </button>
              <button
                type="button"
                role="radio"
                className={`segment${mode === "json" ? " is-active" : ""}`}
                aria-checked={mode === "json"}
                data-testid="fork-edit-json-mode"
                onClick={() => switchMode("json")}
              >
                Raw JSON
              </button>
            </div>
          ) : null}
          {useForm ? (
            <ArgsForm
              fields={fields}
              values={values}
              errors={fieldErrors}
              onChange={(name, value) => setValues((previous) => ({ ...previous, [name]: value }))}
            />
          ) : (
            <EditText
              id={ids.text}
              label={choice === "args" ? "Args (JSON object)" : "Result (JSON)"}
              value={text}
              onChange={setText}
              mono
            />
          )}
        </div>
      ) : choice === "llm_reply" ? (
        <EditText
          id={ids.text}
          label="The model's reply (sent as written: a reply that does not parse is repaired like a real one)"
          value={text}
          onChange={setText}
          mono
        />
      ) : choice === "query" ? (
        <EditText id={ids.text} label="Query" value={text} onChange={setText} />
      ) : null}
      <label className="check-field">
        <input
          type="checkbox"
          checked={reuse}
          data-testid="fork-reuse"
          onChange={(event) => setReuse(event.target.checked)}
        />
        Reuse identical calls from this run (write, external and stateful tools always run)
      </label>
      {error ? (
        <div className="run-notice tone-error" role="alert" data-testid="fork-error">
          <span>{error.message}</span>
          {error.issues.length > 0 ? (
            <ul className="fork-issues">
              {error.issues.map((issue) => (
                <li key={issue}>{issue}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}

function EditText(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  mono?: boolean;
}): ReactElement {
  return (
    <div className="field">
      <label className="field-label" htmlFor={props.id}>
        {props.label}
      </label>
      <textarea
        id={props.id}
        className={`input${props.mono ? " mono" : ""}`}
        rows={8}
        value={props.value}
        data-testid="fork-edit-text"
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

function getVersionLabel(version: number, known: { ran: number | undefined; latest: number }): string {
  const notes = [
    ...(version === known.ran ? ["this run's"] : []),
    ...(version === known.latest ? ["latest"] : []),
  ];
  return notes.length > 0 ? `v${version} · ${notes.join(", ")}` : `v${version}`;
}

function safeParse(text: string): unknown {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}

/** The server's refusal in words, with the schema issues it names (`details.issues`). */
function getForkError(error: unknown): ForkError {
  if (!(error instanceof ApiError)) return { message: String(error), issues: [] };
  const details = error.details as { issues?: { path?: unknown[]; message?: string }[] } | undefined;
  const issues = (details?.issues ?? []).map(
    (issue) => `${(issue.path ?? []).join(".") || "(value)"}: ${issue.message ?? "invalid"}`,
  );
  return { message: error.message, issues };
}
