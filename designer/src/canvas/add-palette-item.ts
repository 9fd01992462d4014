import type { Editor } from "../editor/editor-context.js";
import { addGroupToCanvas, addToolToCanvas } from "../commands/editor-actions.js";
import {
  createA2aTool,
  createMcpTool,
  createModuleTool,
  createNewTool,
} from "../templates/create-new-tool.js";
import type { PaletteItem } from "./palette-drop.js";
import type { XYPosition } from "../model/geometry.js";

/** Adds what a palette entry stands for, centred at a flow point (or the middle of the view). */
export function addPaletteItem(editor: Editor, options: { item: PaletteItem; center?: XYPosition }): void {
  const { item, center } = options;
  const taken = editor.document.getState().spec.tools.map((tool) => tool.name);
  if (item.type === "group") {
    editor.document.getState().transact("add group", () => addGroupToCanvas(editor, center));
    return;
  }
  if (item.type === "module-tool") {
    const info = editor.server.getState().tools.find((tool) => tool.name === item.name);
    if (!info) return;
    addToolToCanvas(editor, { tool: createModuleTool({ info, taken }), ...(center ? { center } : {}) });
    return;
  }
  if (item.type === "a2a-tool") {
    const tool = createA2aTool({ url: item.url, card: item.card, taken });
    addToolToCanvas(editor, { tool, ...(center ? { center } : {}) });
    return;
  }
  if (item.type === "mcp-tool") {
    const server = editor.server.getState().mcpServers?.find((candidate) => candidate.name === item.server);
    const info = server?.tools.find((tool) => tool.name === item.tool);
    if (!info || info.unavailable !== undefined) return;
    const tool = createMcpTool({ server: item.server, info, taken });
    addToolToCanvas(editor, { tool, ...(center ? { center } : {}) });
    return;
  }
  const agentIds = editor.server
    .getState()
    .agents.map((agent) => agent.id)
    .filter((id) => id !== editor.document.getState().spec.id);
  addToolToCanvas(editor, {
    tool: createNewTool({ kind: item.kind, taken, agentIds }),
    ...(center ? { center } : {}),
  });
}
