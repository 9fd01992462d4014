import type { AgentDiffResponse } from "@waddle/protocol";
import { useEffect, useState, type ReactElement } from "react";
import { getErrorMessage } from "../api/api-error.js";
import { useEditor } from "../editor/editor-context.js";
import { SpecDiffView } from "./spec-diff-view.js";

/**
 * "What changes for production": the structural diff from the version the channel serves now to the one
 * being released; a channel with no release yet says so.
 */
export function ReleaseDiffSection(props: {
  agentId: string;
  channel: string;
  /** The version the channel serves now (null: a new channel). */
  current: number | null;
  version: number | null;
}): ReactElement {
  const { agentId, channel, current, version } = props;
  const editor = useEditor();
  const [answer, setAnswer] = useState<AgentDiffResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setAnswer(null);
    setError(null);
    if (current === null || version === null || current === version) return;
    let live = true;
    editor.api.getAgentDiff(agentId, current, version).then(
      (diff) => live && setAnswer(diff),
      (caught: unknown) => live && setError(getErrorMessage(caught)),
    );
    return () => {
      live = false;
    };
  }, [agentId, current, version, editor]);

  const title = channel ? `What changes for ${channel}` : "What changes";
  return (
    <section
      className="release-section"
      aria-labelledby="release-diff-title"
      data-testid="release-diff"
      data-from={current ?? ""}
      data-to={version ?? ""}
    >
      <h3 id="release-diff-title" className="release-section-title">
        {title}
        {current !== null && version !== null ? (
          <span className="release-section-meta">
            v{current} → v{version}
          </span>
        ) : null}
      </h3>
      <div className="release-diff">
        {version === null ? (
          <p className="release-note">Save the agent first: a release points a channel at a saved version.</p>
        ) : current === null ? (
          <p className="release-note">
            First release of this channel: callers of {channel || "it"} get v{version} as it is.
          </p>
        ) : current === version ? (
          <p className="release-note">
            {channel} already serves v{version}: releasing it again changes nothing for callers.
          </p>
        ) : error ? (
          <p className="field-error">{error}</p>
        ) : answer === null ? (
          <p className="release-note">Reading the changes…</p>
        ) : (
          <SpecDiffView diff={answer.diff} />
        )}
      </div>
    </section>
  );
}
