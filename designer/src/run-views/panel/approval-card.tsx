import type { ToolSpec } from "@waddle/protocol";
import { useDenied } from "../../store/me-store.js";
import { useId, useMemo, useState, type ReactElement } from "react";
import type { ResumeInput } from "../../runs/run-store.js";
import type { RunView } from "../../runs/fold/run-view.js";
import {
  getArgsFormFields,
  getArgsFormValues,
  hasArgsFields,
  readArgsForm,
  readArgsJson,
  type ArgsFormValues,
} from "./args-form-model.js";
import { ArgsForm } from "./args-form.js";
import { getElicitationView } from "./get-elicitation-view.js";
import { getPauseExplanation, type PauseExplanation } from "./get-pause-explanation.js";

export type PendingRunPause = NonNullable<RunView["pause"]>;

const REASONS: Record<string, string> = {
  approval_required: "needs approval",
  await_input: "waits for input",
  external_event: "waits for an outside event",
  constraints_conflict: "hit conflicting constraints",
  stuck: "looks stuck",
  guard: "is held by a guard",
  // the Inbox shows a session's merge held for a person (HUMAN_GATED) with this same form
  merge_pending: "wait to be merged into the conversation",
};

const EMPTY_SCHEMA = Object.freeze({});
const DEFAULT_TEST_IDS = { approve: "approve-button", reject: "reject-button", edit: "edit-args-button" };

/** Why the run paused: the stuck-run breaker's message, or a guard's name, stage and findings (never the text). */
function PauseExplanationView({ explanation }: { explanation: PauseExplanation }): ReactElement {
  const message = explanation.message ? (
    <p className="approval-explanation" data-testid="approval-pause-message">
      {explanation.message}
    </p>
  ) : null;
  if (explanation.kind === "note") return message ?? <></>;
  return (
    <>
      <p className="approval-guard-facts" data-testid="approval-guard" data-guard={explanation.guard}>
        <strong>Guard {explanation.guard}</strong> · {explanation.place}
        {explanation.findings ? ` · found ${explanation.findings}` : ""}
      </p>
      {message}
    </>
  );
}

function EditArgs(props: {
  tool: ToolSpec | undefined;
  args: unknown;
  onCancel: () => void;
  onSend: (args: Record<string, unknown>) => void;
  busy: boolean;
}): ReactElement {
  const schema = props.tool?.argsSchema ?? EMPTY_SCHEMA;
  const useFields = hasArgsFields(schema);
  const fields = useMemo(() => getArgsFormFields(schema, props.args), [schema, props.args]);
  const [values, setValues] = useState<ArgsFormValues>(() => getArgsFormValues(fields, props.args));
  const [json, setJson] = useState(() => JSON.stringify(props.args ?? {}, null, 2));
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const jsonId = useId();
  const submit = () => {
    if (useFields) {
      const result = readArgsForm({ fields, values, base: props.args });
      if (!result.ok) return setErrors(result.errors);
      setErrors({});
      return props.onSend(result.args);
    }
    const result = readArgsJson(json);
    if (!result.ok) return setErrors({ "": result.error });
    setErrors({});
    props.onSend(result.args);
  };
  return (
    <form
      className="approval-edit"
      aria-label="Edit the args"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {useFields ? (
        <ArgsForm
          fields={fields}
          values={values}
          errors={errors}
          onChange={(name, value) => setValues((previous) => ({ ...previous, [name]: value }))}
        />
      ) : (
        <div className={`field${errors[""] ? " field-invalid" : ""}`}>
          <label className="field-label" htmlFor={jsonId}>
            Args (JSON object)
          </label>
          <textarea
            id={jsonId}
            className="input mono"
            rows={8}
            value={json}
            data-testid="args-json"
            aria-invalid={errors[""] !== undefined}
            onChange={(event) => setJson(event.target.value)}
          />
          {errors[""] ? (
            <p className="field-error" role="alert">
              {errors[""]}
            </p>
          ) : null}
        </div>
      )}
      {Object.keys(errors).length > 0 ? (
        <p className="field-error" role="alert" data-testid="args-form-errors">
          Fix the marked fields before sending.
        </p>
      ) : null}
      <div className="approval-actions">
        <button
          type="submit"
          className="btn btn-primary btn-small"
          data-testid="send-edited-args"
          disabled={props.busy}
        >
          Send edited args
        </button>
        <button type="button" className="btn btn-small" onClick={props.onCancel}>
          Cancel edit
        </button>
      </div>
    </form>
  );
}

/**
 * A paused step in the run panel: what it waits for, the proposed args, approve / reject / edit (a form
 * generated from the tool's args schema, validated before sending) and a note sent with any decision.
 */
export function ApprovalCard(props: {
  pause: PendingRunPause;
  tool: ToolSpec | undefined;
  editing: boolean;
  onEditingChange: (editing: boolean) => void;
  /** Sends the decision; resolves false when it was refused (the panel says why). */
  onDecide: (input: ResumeInput) => Promise<boolean>;
  /** The buttons' test ids where the card is used outside the run view (the Inbox's `inbox-approve`…). */
  testIds?: { approve: string; reject: string; edit: string };
}): ReactElement {
  const { pause, tool, editing } = props;
  const testIds = props.testIds ?? DEFAULT_TEST_IDS;
  const decideDenied = useDenied("runs:decide");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const noteId = useId();
  const decide = async (input: ResumeInput) => {
    setBusy(true);
    const sent = await props.onDecide(note.trim() ? { ...input, userInput: note.trim() } : input);
    setBusy(false);
    if (sent) props.onEditingChange(false);
  };
  const toolName = pause.tool ?? tool?.name ?? null;
  // An MCP server asking a person during a call: the note is the answer, sent with Approve.
  const elicitation = getElicitationView(pause.payload);
  const explanation = getPauseExplanation(pause.reason, pause.payload);
  return (
    <section
      className="approval-card"
      data-testid="approval-card"
      data-reason={pause.reason}
      aria-label={`Paused: ${toolName ?? "the run"} ${REASONS[pause.reason] ?? pause.reason}`}
    >
      <div className="approval-head">
        <svg className="approval-icon" width={14} height={14} viewBox="0 0 24 24" aria-hidden>
          <path d="M7 5h3v14H7zM14 5h3v14h-3z" fill="currentColor" />
        </svg>
        <strong>{toolName ?? "The run"}</strong> {REASONS[pause.reason] ?? pause.reason.replaceAll("_", " ")}
      </div>
      {tool?.safetyNotes ? <p className="approval-safety">{tool.safetyNotes}</p> : null}
      {explanation ? <PauseExplanationView explanation={explanation} /> : null}
      {elicitation ? (
        <div className="approval-elicitation" data-testid="approval-elicitation">
          <p>
            <strong>{elicitation.server || "The MCP server"} asks:</strong> {elicitation.question}
          </p>
          {elicitation.fields.length > 0 ? (
            <ul>
              {elicitation.fields.map((field) => (
                <li key={field.name}>
                  <code>{field.name}</code>
                  {field.required ? " (required)" : ""}
                  {field.description ? `: ${field.description}` : ""}
                </li>
              ))}
            </ul>
          ) : null}
          {elicitation.problem ? (
            <p className="field-error" role="alert">
              The last answer did not fit: {elicitation.problem}
            </p>
          ) : null}
        </div>
      ) : null}
      {pause.args !== undefined && pause.args !== null && !editing ? (
        <pre className="approval-args" data-testid="approval-args">
          {JSON.stringify(pause.args, null, 2)}
        </pre>
      ) : null}
      {editing ? (
        <EditArgs
          tool={tool}
          args={pause.args}
          busy={busy}
          onCancel={() => props.onEditingChange(false)}
          onSend={(args) => void decide({ decision: "edit", args })}
        />
      ) : null}
      <div className="field">
        <label className="field-label" htmlFor={noteId}>
          {elicitation ? "Answer (sent with Approve; Reject declines)" : "Note (sent with the decision)"}
        </label>
        <textarea
          id={noteId}
          className="input"
          rows={2}
          value={note}
          placeholder={
            elicitation
              ? elicitation.fields.length === 1
                ? `The value of ${elicitation.fields[0]!.name}`
                : `{${elicitation.fields.map((field) => `"${field.name}": …`).join(", ")}}`
              : "Optional: why, or what to do instead"
          }
          data-testid="approval-note"
          disabled={decideDenied !== null}
          title={decideDenied ?? undefined}
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      {editing ? null : (
        <div className="approval-actions">
          <button
            type="button"
            className="btn btn-primary btn-small"
            data-testid={testIds.approve}
            disabled={busy || decideDenied !== null}
            title={decideDenied ?? undefined}
            onClick={() => void decide({ decision: "approve" })}
          >
            Approve
          </button>
          <button
            type="button"
            className="btn btn-small btn-reject"
            data-testid={testIds.reject}
            disabled={busy || decideDenied !== null}
            title={decideDenied ?? undefined}
            onClick={() => void decide({ decision: "reject" })}
          >
            Reject
          </button>
          {pause.args !== undefined && pause.args !== null ? (
            <button
              type="button"
              className="btn btn-small"
              data-testid={testIds.edit}
              disabled={busy || decideDenied !== null}
              title={decideDenied ?? undefined}
              onClick={() => props.onEditingChange(true)}
            >
              Edit args…
            </button>
          ) : null}
        </div>
      )}
      {decideDenied ? (
        <p className="run-dirty-note" data-testid="approval-denied">
          {decideDenied}
        </p>
      ) : null}
    </section>
  );
}
