import type { Editor } from "../editor/editor-context.js";
import type { PaletteEntry } from "../commands/get-palette-matches.js";
import { addPaletteItem } from "../canvas/add-palette-item.js";
import type { PaletteItem } from "../canvas/palette-drop.js";
import { getViewPrefsStore } from "../editor/use-view-prefs.js";
import { getGroupKey } from "../model/layout-geometry.js";
import { NEW_TOOL_KINDS, TOOL_KIND_INFO } from "../templates/create-new-tool.js";

/** A palette entry with what choosing it does. */
export interface RunnableEntry extends PaletteEntry {
  run(): void;
}

/** Everything the command palette can search right now: commands, the canvas's nodes, tools, agents. */
export function getCommandPaletteEntries(editor: Editor): RunnableEntry[] {
  const { spec, setSelection } = editor.document.getState();
  const known = editor.server.getState();
  const editing = editor.runs.getState().mode === "edit";
  const commands: RunnableEntry[] = editor.commands
    .list()
    .filter(
      (command) => command.name !== "command-palette" && editor.commands.isEnabled(command.name, editor),
    )
    .map((command) => ({
      id: `command:${command.name}`,
      group: "Commands",
      label: command.label,
      ...(command.name === "toggle-follow-run"
        ? { detail: getViewPrefsStore(editor).getState().followRun ? "on now" : "off now" }
        : {}),
      ...(command.shortcut ? { shortcut: command.shortcut } : {}),
      run: () => void editor.commands.execute(command.name, editor),
    }));
  const select = (id: string) => () => {
    if (editing) setSelection({ nodes: [id], edges: [] });
    editor.canvas.current?.reveal({ nodes: [id] });
  };
  const nodes: RunnableEntry[] = [
    ...spec.tools.map((tool) => ({
      id: `node:${tool.name}`,
      group: "Nodes" as const,
      label: tool.name,
      detail: `${TOOL_KIND_INFO[tool.impl.kind].label} tool`,
      run: select(tool.name),
    })),
    ...spec.groups.map((group) => ({
      id: `node:${getGroupKey(group.id)}`,
      group: "Nodes" as const,
      label: group.name,
      detail: "parallel group",
      run: select(getGroupKey(group.id)),
    })),
  ];
  const add = (item: PaletteItem) => () => addPaletteItem(editor, { item });
  const tools: RunnableEntry[] = editing
    ? [
        ...NEW_TOOL_KINDS.map((kind) => ({
          id: `tool:new-${kind}`,
          group: "Tools" as const,
          label: `Add a new ${TOOL_KIND_INFO[kind].label} tool`,
          detail: TOOL_KIND_INFO[kind].blurb,
          run: add({ type: "new-tool", kind }),
        })),
        {
          id: "tool:group",
          group: "Tools" as const,
          label: "Add a parallel group",
          run: add({ type: "group" }),
        },
        ...known.tools.map((tool) => ({
          id: `tool:module-${tool.name}`,
          group: "Tools" as const,
          label: `Add ${tool.name}`,
          detail: `module tool · ${tool.desc}`,
          run: add({ type: "module-tool", name: tool.name }),
        })),
        ...(known.mcpServers ?? []).flatMap((server) =>
          server.tools
            .filter((tool) => tool.unavailable === undefined)
            .map((tool) => ({
              id: `tool:mcp-${server.name}-${tool.name}`,
              group: "Tools" as const,
              label: `Add ${tool.name}`,
              detail: `MCP tool of ${server.name}`,
              run: add({ type: "mcp-tool", server: server.name, tool: tool.name }),
            })),
        ),
      ]
    : [];
  const openId = editor.document.getState().agentId;
  const agents: RunnableEntry[] = known.agents
    .filter((agent) => agent.id !== openId)
    .map((agent) => ({
      id: `agent:${agent.id}`,
      group: "Agents",
      label: `Open ${agent.name}`,
      detail: agent.id,
      run: () => void editor.agents.openAgent(agent.id),
    }));
  return [...commands, ...nodes, ...tools, ...agents];
}
