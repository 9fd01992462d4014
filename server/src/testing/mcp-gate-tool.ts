import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

/**
 * The MCP fixture's `gate` tool, registered only when the fixture is given a gate server (the e2e stack's
 * `test/e2e/gate-server.ts`, through `WADDLE_MCP_FIXTURE_GATES`): a call waits until the test opens the
 * gate it names, so a spec can watch an MCP tool run without betting on a latency.
 */
export function registerMcpGateTool(
  server: McpServer,
  options: { gatesURL: string; onCall: () => void },
): void {
  server.registerTool(
    "gate",
    {
      description: "Waits until the test opens the gate named `gate`, then answers what the gate said.",
      inputSchema: { gate: z.string().min(1).max(200).default("mcp") },
    },
    async ({ gate }, extra) => {
      options.onCall();
      const answer = await fetch(`${options.gatesURL}/gates/${encodeURIComponent(gate)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ gate }),
        signal: extra.signal,
      });
      const text = await answer.text();
      if (!answer.ok)
        return { content: [{ type: "text" as const, text: `gate ${gate}: ${text}` }], isError: true };
      return { content: [{ type: "text" as const, text: `gate ${gate} opened: ${text}` }] };
    },
  );
}
