import type { McpImpl, McpServerInfo } from "@waddle/protocol";
import type { ReactElement } from "react";
import type { z } from "zod";
import { SelectField } from "../components/fields.js";

type Mcp = z.infer<typeof McpImpl>;

/**
 * Which MCP server and tool: only servers the Waddle server lists (WADDLE_MCP_SERVERS) can be chosen, so a
 * spec never names a command or URL. A server or tool that is not listed (any more) stays, marked as such.
 */
export function McpImplEditor({
  impl,
  servers,
  onChange,
}: {
  impl: Mcp;
  /** null until the server has answered. */
  servers: McpServerInfo[] | null;
  onChange: (patch: Partial<Mcp>, key: string) => void;
}): ReactElement {
  const server = servers?.find((candidate) => candidate.name === impl.server);
  const tool = server?.tools.find((candidate) => candidate.name === impl.tool);
  const serverOptions = (servers ?? []).map((candidate) => ({
    value: candidate.name,
    label: `${candidate.name} (${candidate.transport}${candidate.status === "error" ? ", not available" : ""})`,
  }));
  if (!server) serverOptions.unshift({ value: impl.server, label: `${impl.server} (not listed)` });
  const toolOptions = (server?.tools ?? []).map((candidate) => ({
    value: candidate.name,
    label: candidate.name,
  }));
  if (!tool) toolOptions.unshift({ value: impl.tool, label: `${impl.tool} (not listed)` });
  return (
    <>
      <SelectField
        label="MCP server"
        value={impl.server}
        options={serverOptions}
        testId="mcp-server"
        hint={
          servers === null
            ? "Loading the server's MCP servers…"
            : server
              ? (server.error ?? `Listed in WADDLE_MCP_SERVERS (${server.status}).`)
              : "Not in the server's WADDLE_MCP_SERVERS: runs of this agent are refused until it is."
        }
        onChange={(name) => {
          const next = servers?.find((candidate) => candidate.name === name);
          onChange({ server: name, tool: next?.tools[0]?.name ?? impl.tool }, "server");
        }}
      />
      <SelectField
        label="Tool"
        value={impl.tool}
        options={toolOptions}
        testId="mcp-tool"
        hint={
          tool
            ? tool.desc || "Its args and out schemas come from the server's listing."
            : server?.status === "connected"
              ? "The server does not list this tool: calls fail until it does."
              : "Shown once the server answers."
        }
        onChange={(name) => onChange({ tool: name }, "tool")}
      />
    </>
  );
}
