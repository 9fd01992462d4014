import { validateAgentSpec, type McpServerInfo } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createApiClient } from "../api/api-client.js";
import { AgentLibrary } from "../agents/agent-library.js";
import { createMcpTool } from "../templates/create-new-tool.js";
import { createTestEditor } from "../testing/create-test-editor.js";
import { addPaletteItem } from "./add-palette-item.js";
import { readPaletteItem } from "./palette-drop.js";

const SERVERS: McpServerInfo[] = [
  {
    name: "docs.search",
    transport: "http",
    status: "connected",
    tools: [
      {
        name: "find-pages",
        desc: "Finds pages about a topic.",
        argsSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
        readOnly: true,
      },
      {
        name: "count",
        desc: "Counts pages.",
        argsSchema: { type: "object", properties: {} },
        outSchema: { type: "object", properties: { count: { type: "number" } }, required: ["count"] },
      },
      {
        name: "delete-page",
        desc: "Deletes a page.",
        argsSchema: { type: "object", properties: { id: { type: "string" } } },
        sideEffects: "write",
      },
      {
        name: "reindex",
        desc: "Rebuilds the index as an MCP task.",
        argsSchema: { type: "object", properties: {} },
        unavailable:
          'it runs only as an MCP task (execution.taskSupport "required"), which Waddle does not run yet',
      },
    ],
  },
  { name: "broken", transport: "stdio", status: "error", error: "spawn nope ENOENT", tools: [] },
];

/** A real editor whose API answers GET /api/mcp/servers with `SERVERS` (and 503 to anything else). */
const createMcpTestEditor = () =>
  createTestEditor({
    fetch: (async (input: RequestInfo | URL) =>
      String(input).endsWith("/api/mcp/servers")
        ? Response.json({ servers: SERVERS })
        : new Response(null, { status: 503 })) as typeof fetch,
  });

describe("an MCP tool from the palette", () => {
  it("drops as an mcp tool with the schemas its server lists", async () => {
    const editor = createMcpTestEditor();
    expect(editor.server.getState().mcpServers).toBeNull();
    await editor.agents.refreshMcpServers();
    expect(editor.server.getState().mcpServers).toEqual(SERVERS);
    const item = readPaletteItem(JSON.stringify({ type: "mcp-tool", server: "docs.search", tool: "count" }));
    expect(item).toEqual({ type: "mcp-tool", server: "docs.search", tool: "count" });
    addPaletteItem(editor, { item: item!, center: { x: 100, y: 100 } });
    const spec = editor.document.getState().spec;
    expect(spec.tools.at(-1)).toMatchObject({
      name: "count",
      desc: "Counts pages.",
      sideEffects: "external",
      outSchema: SERVERS[0]!.tools[1]!.outSchema,
      impl: { kind: "mcp", server: "docs.search", tool: "count" },
    });
    expect(validateAgentSpec(spec).ok).toBe(true);
  });

  it("takes the side effects the tool's annotations give", async () => {
    const editor = createMcpTestEditor();
    await editor.agents.refreshMcpServers();
    addPaletteItem(editor, { item: { type: "mcp-tool", server: "docs.search", tool: "delete-page" } });
    addPaletteItem(editor, { item: { type: "mcp-tool", server: "docs.search", tool: "find-pages" } });
    const tools = editor.document.getState().spec.tools;
    expect(tools.find((tool) => tool.name === "delete_page")?.sideEffects).toBe("write");
    expect(tools.find((tool) => tool.name === "find_pages")?.sideEffects).toBe("read");
  });

  it("never adds a tool its server lists as unavailable", async () => {
    const editor = createMcpTestEditor();
    await editor.agents.refreshMcpServers();
    const before = editor.document.getState().spec.tools.length;
    addPaletteItem(editor, { item: { type: "mcp-tool", server: "docs.search", tool: "reindex" } });
    expect(editor.document.getState().spec.tools).toHaveLength(before);
  });

  it("does nothing for a tool the server no longer lists", async () => {
    const editor = createMcpTestEditor();
    await editor.agents.refreshMcpServers();
    const before = editor.document.getState().spec.tools.length;
    addPaletteItem(editor, { item: { type: "mcp-tool", server: "docs.search", tool: "gone" } });
    addPaletteItem(editor, { item: { type: "mcp-tool", server: "elsewhere", tool: "count" } });
    expect(editor.document.getState().spec.tools).toHaveLength(before);
  });

  it("shows no MCP servers when the server cannot list them", async () => {
    const editor = createMcpTestEditor();
    editor.api = createApiClient({
      getToken: () => null,
      fetch: (async () => new Response(null, { status: 404 })) as typeof fetch,
    });
    const agents = new AgentLibrary({ ...editor, api: editor.api });
    await agents.refreshMcpServers();
    expect(editor.server.getState().mcpServers).toEqual([]);
  });
});

describe("createMcpTool", () => {
  const [findPages] = SERVERS[0]!.tools;

  it("makes a valid tool name of the MCP name, a read-only tool reads, a text result without an out schema", () => {
    const tool = createMcpTool({ server: "docs.search", info: findPages!, taken: ["find_pages"] });
    expect(tool).toMatchObject({
      name: "find_pages_2",
      sideEffects: "read",
      argsSchema: findPages!.argsSchema,
      outSchema: { type: "object", properties: { text: { type: "string" } } },
      impl: { kind: "mcp", server: "docs.search", tool: "find-pages" },
    });
  });

  it.each([
    ["2fa.check", "mcp_2fa_check"],
    ["...", "___"],
    ["a".repeat(128), "a".repeat(56)],
  ])("names %s as %s", (name, expected) => {
    const tool = createMcpTool({ server: "s", info: { ...findPages!, name }, taken: [] });
    expect(tool.name).toBe(expected);
    expect(tool.impl).toMatchObject({ tool: name });
  });
});
