import type { AgentSpec, SpecIssue } from "@waddle/protocol";
import { useState, type ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { getErrorMessage } from "../api/api-error.js";
import { Dialog, DialogActions } from "../components/dialog.js";
import { createUniqueName } from "../graph/create-unique-name.js";
import { getAutoLayoutChange, loadElk } from "../graph/auto-layout.js";
import { applySpecChange } from "../store/apply-spec-change.js";
import { readImportText } from "./read-import-text.js";

/** Lays out an imported spec whose tools have no positions (PenguiFlow hints have none). */
async function withLayout(spec: AgentSpec): Promise<AgentSpec> {
  if (spec.tools.every((tool) => spec.layout.nodes[tool.name])) return spec;
  const change = await getAutoLayoutChange(spec, await loadElk());
  return change ? applySpecChange(spec, change) : spec;
}

/** Import a full spec or a PenguiFlow planning_hints dict, from a file or pasted text. */
export function ImportDialog({ close }: { close: () => void }): ReactElement {
  const editor = useEditor();
  const [text, setText] = useState("");
  const [mode, setMode] = useState<"merge" | "new">("merge");
  const [issues, setIssues] = useState<SpecIssue[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const parsed = readImportText(text);
  const isHints = parsed.kind === "hints";

  const readFile = async (file: File | undefined) => {
    if (file) setText(await file.text());
  };

  const submit = async () => {
    if (parsed.kind !== "spec" && parsed.kind !== "hints") return;
    setBusy(true);
    setError(null);
    try {
      const document = editor.document.getState();
      const body =
        parsed.kind === "hints" && mode === "merge"
          ? { base: document.spec, planning_hints: parsed.hints }
          : parsed.value;
      const result = await editor.api.importAgent(body);
      setIssues(result.issues);
      if (!result.spec) {
        setError("The import has errors (listed below); nothing was changed.");
        return;
      }
      const spec = await withLayout(result.spec);
      if ((isHints && mode === "merge") || spec.id === document.agentId) {
        document.dispatch({ type: "replaceSpec", spec: { ...spec, id: document.spec.id }, reason: "import" });
      } else {
        const taken = editor.server.getState().agents.map((agent) => agent.id);
        const id = createUniqueName({ base: spec.id, taken, separator: "-" });
        editor.agents.openUnsaved({ ...spec, id });
        if (id !== spec.id)
          editor.ui.getState().notify("info", `An agent “${spec.id}” exists already: imported as “${id}”.`);
      }
      const warnings = result.issues.length;
      editor.ui
        .getState()
        .notify(
          "success",
          `Imported${warnings ? ` with ${warnings} warning${warnings === 1 ? "" : "s"}` : ""}. Save to keep it.`,
        );
      close();
    } catch (caught) {
      setError(getErrorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Import"
      size="large"
      testId="import-dialog"
      onClose={close}
      footer={
        <DialogActions
          onCancel={close}
          onAccept={() => void submit()}
          acceptLabel={busy ? "Importing…" : "Import"}
          acceptTestId="import-submit"
          disabled={(parsed.kind !== "spec" && parsed.kind !== "hints") || busy}
        />
      }
    >
      <p className="explain">
        A full agent spec (JSON), or a PenguiFlow <code>planning_hints</code> dict — bare or as{" "}
        <code>{"{planning_hints: …}"}</code>.
      </p>
      <label className="btn btn-small file-button">
        Choose a file…
        <input
          type="file"
          accept=".json,application/json"
          data-testid="import-file"
          onChange={(event) => void readFile(event.target.files?.[0])}
        />
      </label>
      <textarea
        className="input mono import-text"
        rows={12}
        spellCheck={false}
        placeholder='{"version": 1, "id": "my-agent", …}  or  {"ordering_hints": ["search", "summarize"]}'
        value={text}
        data-testid="import-text"
        onChange={(event) => setText(event.target.value)}
      />
      {parsed.kind === "invalid" ? (
        <p className="field-error" data-testid="import-text-error">
          {parsed.error}
        </p>
      ) : null}
      {parsed.kind === "spec" || parsed.kind === "hints" ? (
        <p className="field-hint" data-testid="import-kind">
          Detected: {isHints ? "PenguiFlow planning hints" : "an agent spec"}.
        </p>
      ) : null}
      {isHints ? (
        <div className="segmented" role="radiogroup" aria-label="Where the hints go">
          <button
            type="button"
            role="radio"
            aria-checked={mode === "merge"}
            className={`segment${mode === "merge" ? " is-active" : ""}`}
            onClick={() => setMode("merge")}
          >
            Merge into this agent
          </button>
          <button
            type="button"
            role="radio"
            aria-checked={mode === "new"}
            className={`segment${mode === "new" ? " is-active" : ""}`}
            onClick={() => setMode("new")}
          >
            Start a new agent
          </button>
        </div>
      ) : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {issues.length > 0 ? (
        <ul className="issue-list compact" data-testid="import-issues">
          {issues.map((issue, index) => (
            <li key={index} className={`issue-row is-${issue.severity}`}>
              <span className="issue-message">{issue.message}</span> <code>{issue.path}</code>
            </li>
          ))}
        </ul>
      ) : null}
    </Dialog>
  );
}
