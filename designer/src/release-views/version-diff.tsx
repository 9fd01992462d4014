import type { AgentDiffResponse } from "@waddle/protocol";
import { useEffect, useId, useState, type ReactElement } from "react";
import { getErrorMessage } from "../api/api-error.js";
import { useEditor } from "../editor/editor-context.js";
import { getPredecessor } from "../releases/get-predecessor.js";
import { SpecDiffView } from "./spec-diff-view.js";

/**
 * What changed in a saved version: the structural diff from its predecessor, or from another version or
 * channel picked beside it.
 */
export function VersionDiff(props: {
  agentId: string;
  version: number;
  versions: readonly number[];
  channels: readonly { name: string; version: number }[];
}): ReactElement {
  const { agentId, version } = props;
  const editor = useEditor();
  const baseId = useId();
  const predecessor = getPredecessor(version, props.versions);
  const [chosen, setChosen] = useState<string | null>(null);
  const base = chosen ?? (predecessor === null ? "" : String(predecessor));
  const [answer, setAnswer] = useState<AgentDiffResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setChosen(null), [version]);
  useEffect(() => {
    setAnswer(null);
    setError(null);
    if (base === "") return;
    let live = true;
    editor.api.getAgentDiff(agentId, /^\d+$/.test(base) ? Number(base) : base, version).then(
      (diff) => live && setAnswer(diff),
      (caught: unknown) => live && setError(getErrorMessage(caught)),
    );
    return () => {
      live = false;
    };
  }, [agentId, base, version, editor]);

  return (
    <div
      className="version-diff"
      data-testid="version-diff"
      data-from={answer?.from.version ?? ""}
      data-to={version}
    >
      <div className="version-diff-head">
        <label className="field-label" htmlFor={baseId}>
          Changes in v{version} since
        </label>
        <select
          id={baseId}
          className="input"
          data-testid="version-diff-base"
          value={base}
          onChange={(event) => setChosen(event.target.value)}
        >
          {predecessor === null ? <option value="">nothing (the first version)</option> : null}
          {props.versions
            .filter((entry) => entry !== version)
            .map((entry) => (
              <option key={entry} value={String(entry)}>
                v{entry}
                {entry === predecessor ? " (the one before)" : ""}
              </option>
            ))}
          {props.channels.map((channel) => (
            <option key={channel.name} value={channel.name}>
              {channel.name} (v{channel.version})
            </option>
          ))}
        </select>
      </div>
      {base === "" ? (
        <p className="release-note">The first version: everything in it is new.</p>
      ) : error ? (
        <p className="field-error">{error}</p>
      ) : answer === null ? (
        <p className="release-note">Reading the changes…</p>
      ) : (
        <SpecDiffView diff={answer.diff} />
      )}
    </div>
  );
}
