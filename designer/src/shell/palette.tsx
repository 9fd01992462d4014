import type { McpServerInfo } from "@waddle/protocol";
import { useMemo, useState, type ReactElement } from "react";
import { useEditor, useServer } from "../editor/editor-context.js";
import { KIND_ICONS } from "../canvas/tool-node.js";
import { NEW_TOOL_KINDS, TOOL_KIND_INFO } from "../templates/create-new-tool.js";
import { Icon } from "../components/icon.js";
import { PaletteEntry } from "./palette-entry.js";
import { A2aPaletteSection } from "./a2a-palette-section.js";
import { SearchField } from "../components/search-field.js";
import { SideEffectBadge } from "../components/side-effect-badge.js";

const MCP_STATUS_TEXT: Record<McpServerInfo["status"], string> = {
  connected: "Connected",
  error: "Not available",
  idle: "Not started yet",
};

/** The server's MCP servers, each with a status dot and its tools; drop one to call it from the agent. */
function McpPaletteSection(props: { servers: McpServerInfo[]; needle: string }): ReactElement {
  const editor = useEditor();
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void editor.agents.refreshMcpServers().finally(() => setRefreshing(false));
  };
  return (
    <>
      <h3 className="sidebar-heading palette-heading">
        MCP servers
        <button
          type="button"
          className="icon-btn palette-refresh"
          onClick={refresh}
          disabled={refreshing}
          title="Connect again and reload the MCP servers' tools"
          aria-label="Reload MCP servers"
          data-testid="palette-mcp-refresh"
        >
          <Icon name="history" size={12} />
        </button>
      </h3>
      {props.servers.map((server) => {
        const tools = server.tools.filter((tool) =>
          `${server.name} ${tool.name} ${tool.desc}`.toLowerCase().includes(props.needle),
        );
        return (
          <div
            key={server.name}
            className="palette-mcp-server"
            data-testid={`palette-mcp-server-${server.name}`}
            data-status={server.status}
          >
            <div className="palette-mcp-head" title={server.error ?? MCP_STATUS_TEXT[server.status]}>
              <span className={`status-dot mcp-${server.status}`} />
              <span className="palette-mcp-name">{server.name}</span>
              <span className="palette-mcp-meta">
                {server.transport} · {MCP_STATUS_TEXT[server.status].toLowerCase()}
              </span>
            </div>
            {server.error ? <p className="empty-note palette-mcp-error">{server.error}</p> : null}
            <div className="palette-list">
              {tools.map((tool) =>
                // A tool Waddle cannot call (e.g. it needs MCP tasks) is listed with why, never offered.
                tool.unavailable ? (
                  <p
                    key={tool.name}
                    className="empty-note palette-mcp-unavailable"
                    title={tool.desc}
                    data-testid={`palette-mcp-unavailable-${server.name}-${tool.name}`}
                  >
                    {tool.name}: not available, {tool.unavailable}
                  </p>
                ) : (
                  <PaletteEntry
                    key={tool.name}
                    item={{ type: "mcp-tool", server: server.name, tool: tool.name }}
                    icon="plug"
                    title={tool.name}
                    blurb={tool.desc || "No description"}
                    testId={`palette-mcp-${server.name}-${tool.name}`}
                  />
                ),
              )}
            </div>
          </div>
        );
      })}
    </>
  );
}

/** New declared tools, a parallel group frame, the server's registered module tools and its MCP servers. */
export function Palette(): ReactElement {
  const tools = useServer((state) => state.tools);
  const mcpServers = useServer((state) => state.mcpServers);
  const [query, setQuery] = useState("");
  const visibleTools = useMemo(() => {
    const needle = query.trim().toLowerCase();
    return needle === ""
      ? tools
      : tools.filter((tool) =>
          `${tool.name} ${tool.desc} ${tool.tags.join(" ")}`.toLowerCase().includes(needle),
        );
  }, [tools, query]);
  return (
    <div className="sidebar-section palette" data-testid="palette">
      <h3 className="sidebar-heading">New tool</h3>
      <div className="palette-grid">
        {NEW_TOOL_KINDS.map((kind) => (
          <PaletteEntry
            key={kind}
            item={{ type: "new-tool", kind }}
            icon={KIND_ICONS[kind]}
            title={TOOL_KIND_INFO[kind].label}
            blurb={TOOL_KIND_INFO[kind].blurb}
            testId={`palette-new-${kind}`}
          />
        ))}
      </div>
      <PaletteEntry
        item={{ type: "group" }}
        icon="group"
        title="Parallel group"
        blurb="A frame: tools inside run in parallel, then a join tool merges them."
        testId="palette-group"
      />
      <A2aPaletteSection />
      <h3 className="sidebar-heading">Registered tools</h3>
      {tools.length + (mcpServers ?? []).reduce((sum, server) => sum + server.tools.length, 0) > 6 ? (
        <SearchField
          value={query}
          onChange={setQuery}
          placeholder="Filter tools"
          label="Filter registered tools"
        />
      ) : null}
      {tools.length === 0 ? (
        <p className="empty-note">
          No module tools are registered on this server. Tools written with defineTool and registered with the
          server appear here.
        </p>
      ) : (
        <div className="palette-list">
          {visibleTools.map((tool) => (
            <PaletteEntry
              key={tool.name}
              item={{ type: "module-tool", name: tool.name }}
              icon="cube"
              title={tool.name}
              blurb={tool.desc || "No description"}
              testId={`palette-module-${tool.name}`}
              badge={<SideEffectBadge sideEffect={tool.sideEffects} />}
            />
          ))}
        </div>
      )}
      {mcpServers && mcpServers.length > 0 ? (
        <McpPaletteSection servers={mcpServers} needle={query.trim().toLowerCase()} />
      ) : null}
    </div>
  );
}
