import { useMemo, useState, type ReactElement } from "react";
import { DESIGN_PERMISSION, useDenied } from "../store/me-store.js";
import { useDocument, useEditor, useServer } from "../editor/editor-context.js";
import { formatRelativeTime } from "../util/format-time.js";
import { Icon } from "../components/icon.js";
import { SearchField } from "../components/search-field.js";

/** Saved agents with search; open, rename, duplicate, delete; new agent. */
export function AgentList(): ReactElement {
  const editor = useEditor();
  // a role that may not write reads agents only: New, Rename, Duplicate and Delete are off, with the reason
  const writeDenied = useDenied(DESIGN_PERMISSION);
  const agents = useServer((state) => state.agents);
  const loaded = useServer((state) => state.agentsLoaded);
  const offlineReason = useServer((state) => state.offlineReason);
  const openId = useDocument((state) => state.agentId);
  const [query, setQuery] = useState("");
  const visible = useMemo(() => {
    const needle = query.trim().toLowerCase();
    const sorted = [...agents].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    return needle === ""
      ? sorted
      : sorted.filter((agent) =>
          `${agent.name} ${agent.id} ${agent.description ?? ""}`.toLowerCase().includes(needle),
        );
  }, [agents, query]);

  return (
    <div className="sidebar-section agent-list" data-testid="agent-list">
      <div className="sidebar-toolbar">
        <SearchField
          value={query}
          onChange={setQuery}
          placeholder="Search agents"
          label="Search agents"
          testId="agent-search"
        />
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="new-agent"
          title={writeDenied ?? "Start a new agent, empty or from a template"}
          disabled={writeDenied !== null}
          onClick={() => void editor.agents.newAgent()}
        >
          <Icon name="plus" size={14} /> New
        </button>
      </div>
      {offlineReason ? (
        <p className="empty-note is-error" role="alert">
          {offlineReason}
        </p>
      ) : !loaded ? (
        <p className="empty-note">Loading agents…</p>
      ) : agents.length === 0 ? (
        <p className="empty-note">No saved agents yet. Press “New” to start one; saving puts it here.</p>
      ) : visible.length === 0 ? (
        <p className="empty-note">No agent matches “{query}”.</p>
      ) : (
        <ul className="list" role="list">
          {visible.map((agent) => (
            <li
              key={agent.id}
              className={`list-item${agent.id === openId ? " is-active" : ""}`}
              data-testid={`agent-item-${agent.id}`}
            >
              <button
                type="button"
                className="list-main"
                onClick={() => void editor.agents.openAgent(agent.id)}
                title={agent.description || `Open ${agent.name}`}
              >
                <span className="list-title">{agent.name}</span>
                <span className="list-meta">
                  {agent.id} · v{agent.version}
                  {agent.toolCount === undefined
                    ? ""
                    : ` · ${agent.toolCount} tool${agent.toolCount === 1 ? "" : "s"}`}{" "}
                  · {formatRelativeTime(agent.updatedAt)}
                </span>
              </button>
              <div className="list-actions">
                <button
                  type="button"
                  className="icon-btn"
                  title={writeDenied ?? "Rename"}
                  disabled={writeDenied !== null}
                  aria-label={`Rename ${agent.name}`}
                  data-testid={`agent-rename-${agent.id}`}
                  onClick={() => void editor.agents.renameAgent(agent.id)}
                >
                  <Icon name="settings" size={14} />
                </button>
                <button
                  type="button"
                  className="icon-btn"
                  title={writeDenied ?? "Duplicate"}
                  disabled={writeDenied !== null}
                  aria-label={`Duplicate ${agent.name}`}
                  data-testid={`agent-duplicate-${agent.id}`}
                  onClick={() => void editor.agents.duplicateAgent(agent.id)}
                >
                  <Icon name="copy" size={14} />
                </button>
                <button
                  type="button"
                  className="icon-btn is-danger"
                  title={writeDenied ?? "Delete"}
                  disabled={writeDenied !== null}
                  aria-label={`Delete ${agent.name}`}
                  data-testid={`agent-delete-${agent.id}`}
                  onClick={() => void editor.agents.deleteAgent(agent.id)}
                >
                  <Icon name="trash" size={14} />
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
