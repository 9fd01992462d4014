import type { AgentRecord, AgentVersionSummary } from "@waddle/protocol";
import { useEffect, useState, type ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { getErrorMessage } from "../api/api-error.js";
import { Dialog } from "../components/dialog.js";
import { formatRelativeTime } from "../util/format-time.js";
import { DESIGN_PERMISSION, useDenied } from "../store/me-store.js";
import { VersionDiff } from "../release-views/version-diff.js";
import { useReleases } from "../release-views/use-releases.js";

const count = (value: number, word: string) => `${value} ${word}${value === 1 ? "" : "s"}`;

/**
 * The saved versions of the open agent: view one (what changed since the one before, or another version or
 * channel, then its JSON), or restore it into the document (undoable).
 */
export function VersionsDialog({ close }: { close: () => void }): ReactElement {
  const editor = useEditor();
  const agentId = useDocument((state) => state.agentId);
  const current = useDocument((state) => state.baseVersion);
  const [versions, setVersions] = useState<AgentVersionSummary[] | null>(null);
  const [viewed, setViewed] = useState<AgentRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const restoreDenied = useDenied(DESIGN_PERMISSION);
  const channels = useReleases((state) => state.channels);

  useEffect(() => {
    if (!agentId) return;
    let live = true;
    editor.api.listVersions(agentId).then(
      (list) => live && setVersions([...list].sort((a, b) => b.version - a.version)),
      (caught: unknown) => live && setError(getErrorMessage(caught)),
    );
    return () => {
      live = false;
    };
  }, [agentId, editor]);

  const view = async (version: number) => {
    if (!agentId) return;
    try {
      setViewed(await editor.api.getVersion(agentId, version));
    } catch (caught) {
      setError(getErrorMessage(caught));
    }
  };

  return (
    <Dialog title="Version history" size="large" testId="versions-dialog" onClose={close}>
      {error ? <p className="field-error">{error}</p> : null}
      <div className="versions">
        <ul className="list versions-list" role="list">
          {versions === null ? <li className="empty-note">Loading…</li> : null}
          {versions?.map((entry) => (
            <li
              key={entry.version}
              className={`list-item${viewed?.version === entry.version ? " is-active" : ""}`}
              data-testid={`version-${entry.version}`}
            >
              <button type="button" className="list-main" onClick={() => void view(entry.version)}>
                <span className="list-title">
                  Version {entry.version}
                  {entry.version === current ? <span className="badge badge-muted">open</span> : null}
                  {channels
                    .filter((channel) => channel.version === entry.version)
                    .map((channel) => (
                      <span
                        key={channel.name}
                        className="badge badge-channel"
                        title={`${channel.name} serves this version`}
                      >
                        {channel.name}
                      </span>
                    ))}
                </span>
                <span className="list-meta">
                  {entry.name} · {formatRelativeTime(entry.createdAt)}
                  {entry.message ? ` · ${entry.message}` : ""}
                </span>
              </button>
              <button
                type="button"
                className="btn btn-small"
                data-testid={`restore-version-${entry.version}`}
                disabled={restoreDenied !== null}
                title={
                  restoreDenied ??
                  "Put this version into the editor (undoable); saving makes it the newest version"
                }
                onClick={() => {
                  void editor.agents.restoreVersion(entry.version);
                  close();
                }}
              >
                Restore
              </button>
            </li>
          ))}
        </ul>
        <div className="version-preview">
          {viewed ? (
            <>
              <p className="explain">
                Version {viewed.version}: {count(viewed.spec.tools.length, "tool")},{" "}
                {count(viewed.spec.edges.length, "edge")}, {count(viewed.spec.groups.length, "group")}.
              </p>
              {agentId ? (
                <VersionDiff
                  agentId={agentId}
                  version={viewed.version}
                  versions={versions?.map((entry) => entry.version) ?? []}
                  channels={channels}
                />
              ) : null}
              <details className="version-json">
                <summary>The spec as JSON</summary>
                <pre className="code-block" data-testid="version-preview">
                  {JSON.stringify(viewed.spec, null, 2)}
                </pre>
              </details>
            </>
          ) : (
            <p className="empty-note">Pick a version to see its spec.</p>
          )}
        </div>
      </div>
    </Dialog>
  );
}
