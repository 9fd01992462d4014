import { useEffect, useState, type ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { getErrorMessage } from "../api/api-error.js";
import { Dialog } from "../components/dialog.js";
import { Icon } from "../components/icon.js";
import { Tabs } from "../components/tabs.js";
import { getIsDirty } from "../store/document-store.js";

/** The zip formats: what each holds, shown on its tab. */
const PROJECT_FORMATS = {
  "ts-project": {
    label: "TS project",
    suffix: "-ts.zip",
    explain: "as a TypeScript project that runs the agent in your own process, every tool kind wired:",
    files: [
      ["package.json", "exact dependency versions"],
      ["agent.ts", "the agent, its subagents and module tools over @waddle/server/runtime"],
      ["run.ts", 'npx tsx run.ts "…" prints the events and the answer'],
      ["tools/", "the module tools' files"],
      ["README.md, .env.example", "how to run it and the keys and secrets it reads"],
    ],
  },
  penguiflow: {
    label: "PenguiFlow",
    suffix: "-penguiflow.zip",
    explain: "as a Python project for PenguiFlow's ReactPlanner:",
    files: [
      ["catalog.py", "pydantic models per tool and a NodeSpec each"],
      ["planner.py", "ReactPlanner with planning_hints, limits and switches"],
      ["requirements.txt", "penguiflow, pydantic, httpx, openai"],
      ["README.md", "the mapping, and what PenguiFlow cannot carry"],
      ["waddle-agent.json", "the spec, for importing it back"],
    ],
  },
} as const;
type ProjectFormat = keyof typeof PROJECT_FORMATS;

function download(filename: string, content: string | Blob, type: string): void {
  const url = URL.createObjectURL(typeof content === "string" ? new Blob([content], { type }) : content);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The spec as JSON, the TypeScript that runs it (download or copy), or a TS or PenguiFlow project (download). */
export function ExportDialog({ close }: { close: () => void }): ReactElement {
  const editor = useEditor();
  const spec = useDocument((state) => state.spec);
  const agentId = useDocument((state) => state.agentId);
  const version = useDocument((state) => state.baseVersion);
  const dirty = useDocument(getIsDirty);
  const [tab, setTab] = useState<"json" | "ts" | ProjectFormat>("json");
  const [downloading, setDownloading] = useState(false);
  const [typescript, setTypescript] = useState<{ text: string | null; error: string | null }>({
    text: null,
    error: null,
  });
  const json = JSON.stringify(spec, null, 2);

  useEffect(() => {
    if (tab !== "ts" || !agentId) return;
    let live = true;
    editor.api.exportAgent(agentId, "ts").then(
      (text) => live && setTypescript({ text, error: null }),
      (error: unknown) => live && setTypescript({ text: null, error: getErrorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [tab, agentId, version, editor]);

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      editor.ui.getState().notify("success", "Copied to the clipboard.");
    } catch {
      editor.ui
        .getState()
        .notify("error", "The browser refused the clipboard: select the text and copy it by hand.");
    }
  };

  const downloadProject = async (format: ProjectFormat) => {
    if (!agentId) return;
    setDownloading(true);
    try {
      download(
        `${agentId}${PROJECT_FORMATS[format].suffix}`,
        await editor.api.downloadExport(agentId, format),
        "application/zip",
      );
    } catch (error) {
      editor.ui.getState().notify("error", `Export failed: ${getErrorMessage(error)}`);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Dialog title="Export" size="large" testId="export-dialog" onClose={close}>
      <Tabs
        label="Export format"
        value={tab}
        onChange={setTab}
        tabs={[
          { value: "json", label: "JSON", testId: "export-tab-json" },
          { value: "ts", label: "TypeScript", testId: "export-tab-ts" },
          { value: "ts-project", label: "TS project", testId: "export-tab-ts-project" },
          { value: "penguiflow", label: "PenguiFlow", testId: "export-tab-penguiflow" },
        ]}
      />
      {tab === "json" ? (
        <>
          <p className="explain">
            {dirty ? "The document as it is now, unsaved changes included." : `Version ${version} as saved.`}{" "}
            Import it anywhere, or run it with the CLI.
          </p>
          <textarea
            className="input mono export-text"
            readOnly
            rows={16}
            value={json}
            data-testid="export-json"
          />
          <div className="dialog-actions">
            <button
              type="button"
              className="btn btn-primary"
              data-testid="export-download"
              onClick={() => download(`${spec.id}.json`, json, "application/json")}
            >
              <Icon name="download" /> Download {spec.id}.json
            </button>
            <button type="button" className="btn" onClick={() => void copy(json)}>
              <Icon name="copy" /> Copy
            </button>
          </div>
        </>
      ) : !agentId ? (
        <p className="empty-note">
          Save the agent first: the server writes the {tab === "ts" ? "TypeScript" : "project"} from the saved
          version.
        </p>
      ) : tab !== "ts" ? (
        <>
          <p className="explain">
            Saved version {version} {PROJECT_FORMATS[tab].explain}
            {dirty ? " (save to include your latest changes)" : ""}
          </p>
          <ul className="export-files" data-testid={`export-files-${tab}`}>
            {PROJECT_FORMATS[tab].files.map(([file, what]) => (
              <li key={file}>
                <code>{file}</code> {what}
              </li>
            ))}
          </ul>
          <div className="dialog-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={downloading}
              data-testid={`export-download-${tab}`}
              onClick={() => void downloadProject(tab)}
            >
              <Icon name="download" /> Download {agentId}
              {PROJECT_FORMATS[tab].suffix}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="explain">
            TypeScript that runs the agent with every tool wired, over <code>@waddle/server/runtime</code>,
            from saved version {version}.{dirty ? " Save to include your latest changes." : ""}
          </p>
          {typescript.error ? <p className="field-error">{typescript.error}</p> : null}
          <pre className="code-block" data-testid="export-ts">
            {typescript.text ?? "Loading…"}
          </pre>
          <div className="dialog-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={!typescript.text}
              data-testid="export-download-ts"
              onClick={() => typescript.text && download(`${agentId}.ts`, typescript.text, "text/plain")}
            >
              <Icon name="download" /> Download {agentId}.ts
            </button>
            <button
              type="button"
              className="btn"
              disabled={!typescript.text}
              data-testid="export-copy-ts"
              onClick={() => typescript.text && void copy(typescript.text)}
            >
              <Icon name="copy" /> Copy TypeScript
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
