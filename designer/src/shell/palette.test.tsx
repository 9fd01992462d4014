import type { McpServerInfo } from "@waddle/protocol";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EditorContext, type Editor } from "../editor/editor-context.js";
import { createServerStore } from "../store/server-store.js";
import { Palette } from "./palette.js";

const SERVERS: McpServerInfo[] = [
  {
    name: "files",
    transport: "stdio",
    status: "connected",
    tools: [{ name: "read_file", desc: "Reads a file.", argsSchema: { type: "object", properties: {} } }],
  },
  { name: "search", transport: "http", status: "error", error: "Host is not on the allow-list", tools: [] },
];

// A server render reads the store's initial state (useSyncExternalStore's server snapshot): let it see now's.
function render(mcpServers: McpServerInfo[] | null): string {
  const server = createServerStore();
  server.getState().set({ mcpServers });
  return renderToString(
    <EditorContext.Provider
      value={{ server: { ...server, getInitialState: server.getState } } as unknown as Editor}
    >
      <Palette />
    </EditorContext.Provider>,
  );
}

describe("Palette", () => {
  it("shows the MCP servers grouped, each with a status dot, its tools, or why it is not available", () => {
    const html = render(SERVERS);
    expect(html).toContain('data-testid="palette-mcp-server-files"');
    expect(html).toContain('data-testid="palette-mcp-files-read_file"');
    expect(html).toContain("status-dot mcp-connected");
    expect(html).toContain("status-dot mcp-error");
    expect(html).toContain("Host is not on the allow-list");
    expect(html.indexOf("palette-mcp-server-files")).toBeLessThan(html.indexOf("palette-mcp-server-search"));
  });

  it("has no MCP section while loading or when the server lists none", () => {
    expect(render(null)).not.toContain("MCP servers");
    expect(render([])).not.toContain("MCP servers");
  });
});
