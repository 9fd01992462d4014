import { useEffect, useState, type ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { getErrorMessage } from "../api/api-error.js";
import { Dialog } from "../components/dialog.js";
import { Icon } from "../components/icon.js";
import { Tabs } from "../components/tabs.js";
import { getIsDirty } from "../store/document-store.js";

function download(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The spec as JSON (download or copy), or the TypeScript that builds the same planner (copy). */
export function ExportDialog({ close }: { close: () => void }): ReactElement {
  const editor = useEditor();
  const spec = useDocument((state) => state.spec);
  const agentId = useDocument((state) => state.agentId);
  const version = useDocument((state) => state.baseVersion);
  const dirty = useDocument(getIsDirty);
  const [tab, setTab] = useState<"json" | "ts">("json");
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

  return (
    <Dialog title="Export" size="large" testId="export-dialog" onClose={close}>
      <Tabs
        label="Export format"
        value={tab}
        onChange={setTab}
        tabs={[
          { value: "json", label: "JSON", testId: "export-tab-json" },
          { value: "ts", label: "TypeScript", testId: "export-tab-ts" },
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
          Save the agent first: the server writes the TypeScript from the saved version.
        </p>
      ) : (
        <>
          <p className="explain">
            TypeScript that builds the same planner with <code>@waddle/planner</code>, from saved version{" "}
            {version}.{dirty ? " Save to include your latest changes." : ""}
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
