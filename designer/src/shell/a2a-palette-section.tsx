import type { A2aCardSummary } from "@waddle/protocol";
import { useState, type FormEvent, type ReactElement } from "react";
import { getErrorMessage } from "../api/api-error.js";
import { useEditor } from "../editor/editor-context.js";
import { PaletteEntry } from "./palette-entry.js";
import { DESIGN_PERMISSION, useDenied } from "../store/me-store.js";

/**
 * **A2A agent**: a URL field whose card the server reads through its http allow-list (`POST /api/a2a/card`);
 * the card's name, description and skills are shown, and the agent is added as an `a2a` tool from there.
 */
export function A2aPaletteSection(): ReactElement {
  const editor = useEditor();
  const [url, setUrl] = useState("");
  const [card, setCard] = useState<{ url: string; card: A2aCardSummary } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const denied = useDenied(DESIGN_PERMISSION);
  const fetchCard = (event: FormEvent) => {
    event.preventDefault();
    const target = url.trim();
    if (target === "") return;
    setLoading(true);
    setError(null);
    setCard(null);
    editor.api
      .readA2aCard(target)
      .then(
        (read) => setCard({ url: target, card: read }),
        (failure: unknown) => setError(getErrorMessage(failure)),
      )
      .finally(() => setLoading(false));
  };
  return (
    <div className="palette-a2a" data-testid="palette-a2a">
      <h3 className="sidebar-heading palette-heading">A2A agent</h3>
      <form className="palette-a2a-form" onSubmit={fetchCard}>
        <input
          className="input mono"
          type="url"
          value={url}
          placeholder="https://host/a2a/agent"
          aria-label="A2A agent URL"
          onChange={(event) => setUrl(event.target.value)}
          data-testid="palette-a2a-url"
          disabled={denied !== null}
          title={denied ?? undefined}
        />
        <button
          type="submit"
          className="btn btn-small"
          disabled={loading || url.trim() === "" || denied !== null}
          title={denied ?? "Read the agent's card: its skills become tools"}
          data-testid="palette-a2a-fetch"
        >
          {loading ? "Reading…" : "Fetch card"}
        </button>
      </form>
      {error ? (
        <p className="empty-note palette-mcp-error" role="alert" data-testid="palette-a2a-error">
          {error}
        </p>
      ) : null}
      {card ? (
        <div className="palette-a2a-card" data-testid="palette-a2a-card">
          <PaletteEntry
            item={{ type: "a2a-tool", url: card.url, card: card.card }}
            icon="link"
            title={card.card.name}
            blurb={card.card.description || "No description"}
            testId="palette-a2a-add"
          />
          {card.card.skills.length > 0 ? (
            <ul className="palette-a2a-skills">
              {card.card.skills.slice(0, 8).map((skill, index) => (
                <li key={`${skill.name}-${index}`} title={skill.description}>
                  {skill.name}
                </li>
              ))}
            </ul>
          ) : null}
          <p className="palette-a2a-note">
            {card.card.streaming ? "Streams its progress. " : ""}Click or drag it onto the canvas to add it as
            a tool.
          </p>
        </div>
      ) : null}
    </div>
  );
}
