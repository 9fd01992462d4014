import { type ToolSpec, type ToolTestResponse } from "@waddle/protocol";
import { useEffect, useId, useMemo, useState, type ReactElement } from "react";
import { z } from "zod";
import { getErrorMessage } from "../api/api-error.js";
import { Dialog } from "../components/dialog.js";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { ArgsForm } from "../run-views/panel/args-form.js";
import {
  getArgsFormFields,
  getArgsFormValues,
  hasArgsFields,
  readArgsForm,
  readArgsJson,
  type ArgsFormValues,
} from "../run-views/panel/args-form-model.js";
import { getIsDirty } from "../store/document-store.js";
import { getLastToolArgs, rememberToolArgs } from "./last-tool-args.js";

type Errors = Readonly<Record<string, string>>;

const EMPTY_SCHEMA: ToolSpec["argsSchema"] = Object.freeze({});

/** Why this tool asks before a test call, or null when it runs at once. */
export function getConfirmReason(tool: Pick<ToolSpec, "sideEffects" | "requiresApproval">): string | null {
  if (tool.requiresApproval) return "This tool requires approval in runs.";
  if (tool.sideEffects === "write" || tool.sideEffects === "external" || tool.sideEffects === "stateful") {
    return `This tool has ${tool.sideEffects} side effects: the call really happens.`;
  }
  return null;
}

/** The args schema's own issues (zod), by field: what the server would refuse, shown before sending. */
export function getSchemaErrors(schema: ToolSpec["argsSchema"], args: Record<string, unknown>): Errors {
  let parsed;
  try {
    parsed = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(args);
  } catch {
    return {};
  }
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : "";
    const where = issue.path.length > 1 ? `${issue.path.slice(1).join(".")}: ` : "";
    errors[field] = errors[field] ? `${errors[field]} ${where}${issue.message}` : `${where}${issue.message}`;
  }
  return errors;
}

function ResultView({ result }: { result: ToolTestResponse }): ReactElement {
  const attempts = result.attempts ?? 1;
  return (
    <div className={`tool-test-result ${result.ok ? "is-ok" : "is-error"}`} data-testid="tool-test-result">
      <p className="tool-test-status" data-ok={result.ok}>
        <strong>{result.ok ? "OK" : (result.error?.code ?? "failed")}</strong>
        {` · ${Math.round(result.latencyMs)} ms · ${attempts} attempt${attempts === 1 ? "" : "s"}`}
      </p>
      {result.ok ? (
        <pre className="mono tool-test-json">{JSON.stringify(result.result, null, 2)}</pre>
      ) : (
        <p className="tool-test-error">{result.error?.message}</p>
      )}
      {result.prompt !== undefined ? (
        <>
          <h3 className="tool-test-subhead">Prompt sent to the model</h3>
          <pre className="mono tool-test-json" data-testid="tool-test-prompt">
            {result.prompt}
          </pre>
        </>
      ) : null}
    </div>
  );
}

/**
 * **Run tool**: an args form built from the tool's schema (pre-filled from its last call), checked against
 * the schema before anything is sent, then one call through the server's executor with its allow-lists,
 * secrets, timeout and retries. Tools with side effects ask first.
 */
export function ToolTestDialog({ toolName, close }: { toolName: string; close: () => void }): ReactElement {
  const editor = useEditor();
  const tool = useDocument((state) => state.spec.tools.find((candidate) => candidate.name === toolName));
  const agentId = useDocument((state) => state.agentId);
  const [initial, setInitial] = useState<unknown>(() => getLastToolArgs(agentId, toolName));
  const schema = tool?.argsSchema ?? EMPTY_SCHEMA;
  const useFields = hasArgsFields(schema);
  const fields = useMemo(() => getArgsFormFields(schema, initial), [schema, initial]);
  const [values, setValues] = useState<ArgsFormValues>(() => getArgsFormValues(fields, initial));
  const [json, setJson] = useState(() => JSON.stringify(initial ?? {}, null, 2));
  const [errors, setErrors] = useState<Errors>({});
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ToolTestResponse | null>(null);
  const jsonId = useId();

  // The last run's args for this tool, when this page has not called it yet.
  useEffect(() => {
    if (initial !== undefined || agentId === null) return;
    let live = true;
    void getLastRunArgs(editor, { agentId, toolName }).then((args) => {
      if (!live || args === undefined) return;
      setInitial(args);
      const next = getArgsFormFields(schema, args);
      setValues(getArgsFormValues(next, args));
      setJson(JSON.stringify(args, null, 2));
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the dialog opens
  }, []);

  if (!tool) {
    return (
      <Dialog title="Run tool" testId="tool-test-dialog" onClose={close}>
        <p className="explain">The tool “{toolName}” is no longer in this agent.</p>
      </Dialog>
    );
  }
  const confirmReason = getConfirmReason(tool);

  const readArgs = (): Record<string, unknown> | null => {
    const read = useFields ? readArgsForm({ fields, values, base: initial }) : readArgsJson(json);
    if (!read.ok) {
      setErrors("errors" in read ? read.errors : { "": read.error });
      return null;
    }
    const schemaErrors = getSchemaErrors(tool.argsSchema, read.args);
    setErrors(schemaErrors);
    return Object.keys(schemaErrors).length > 0 ? null : read.args;
  };

  const run = async (confirmed: boolean) => {
    const args = readArgs();
    if (args === null) return;
    if (confirmReason && !confirmed) return setConfirming(true);
    setConfirming(false);
    setBusy(true);
    setResult(null);
    rememberToolArgs(agentId, tool.name, args);
    const document = editor.document.getState();
    const saved = document.agentId !== null && !getIsDirty(document);
    try {
      const answer = await editor.api.testTool({
        ...(saved ? { agentId: document.agentId! } : { spec: document.spec as Record<string, unknown> }),
        tool: tool.name,
        args,
        ...(confirmed ? { confirm: true } : {}),
      });
      setResult(answer);
    } catch (error) {
      setResult({
        ok: false,
        latencyMs: 0,
        error: { code: "request_failed", message: getErrorMessage(error) },
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Run tool · ${tool.name}`} size="large" testId="tool-test-dialog" onClose={close}>
      <p className="explain">
        One call of this {tool.impl.kind} tool through the server, as a run makes it: allow-lists, secrets,
        timeout and retries apply.
        {getIsDirty(editor.document.getState()) ? " Unsaved changes are included." : ""}
      </p>
      <form
        className="tool-test-form"
        aria-label="Args"
        onSubmit={(event) => {
          event.preventDefault();
          void run(false);
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
              rows={6}
              value={json}
              data-testid="args-json"
              onChange={(event) => setJson(event.target.value)}
            />
          </div>
        )}
        {Object.keys(errors).length > 0 ? (
          <p className="field-error" role="alert" data-testid="tool-test-errors">
            {errors[""] ?? "The args do not fit the tool's schema: fix the marked fields. Nothing was sent."}
          </p>
        ) : null}
        {confirming ? (
          <div className="tool-test-confirm" role="alert" data-testid="tool-test-confirm">
            <p>{confirmReason} Run it for real?</p>
            <button
              type="button"
              className="btn btn-danger btn-small"
              data-testid="tool-test-confirm-run"
              onClick={() => void run(true)}
            >
              Run for real
            </button>
            <button type="button" className="btn btn-small" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        ) : null}
        <div className="dialog-actions">
          <button type="submit" className="btn btn-primary" data-testid="tool-test-run" disabled={busy}>
            {busy ? "Running…" : "Run tool"}
          </button>
        </div>
      </form>
      {result ? <ResultView result={result} /> : null}
    </Dialog>
  );
}

/** The args of the tool's last call in the agent's newest run that called it, if any. */
async function getLastRunArgs(
  editor: ReturnType<typeof useEditor>,
  options: { agentId: string; toolName: string },
): Promise<unknown> {
  try {
    const runs = await editor.api.listRuns({ agentId: options.agentId, limit: 5 });
    for (const run of runs) {
      const events = await editor.api.getRunEvents(run.id);
      const start = events.findLast(
        (event) => event.type === "tool_start" && event.data.tool === options.toolName,
      );
      if (start?.type === "tool_start") return start.data.args;
    }
  } catch {
    // no runs to learn from: the form starts empty
  }
  return undefined;
}
