import { describe, expect, it } from "vitest";
import { getUseSnippets, TOKEN_PLACEHOLDER } from "./use-agent-dialog.js";

describe("getUseSnippets", () => {
  const base = { origin: "http://127.0.0.1:8787", agentId: "support-triage", query: "It's broken" };

  it("gives curl, the openai SDK, an MCP configuration and the CLI for this server, with no token", () => {
    const snippets = getUseSnippets({ ...base, authRequired: false });
    expect(snippets.map((snippet) => snippet.id)).toEqual(["curl", "openai", "mcp", "cli"]);
    const [curl, openai, mcp, cli] = snippets.map((snippet) => snippet.text);
    expect(curl).toContain("curl -X POST http://127.0.0.1:8787/api/runs");
    expect(curl).toContain(`-d '{"agentId":"support-triage","query":"It'\\''s broken"}'`);
    expect(openai).toContain('baseURL: "http://127.0.0.1:8787/v1"');
    expect(openai).toContain('model: "support-triage"');
    expect(JSON.parse(mcp!)).toEqual({ mcpServers: { waddle: { url: "http://127.0.0.1:8787/mcp" } } });
    expect(cli).toBe(`npx waddle run support-triage "It's broken" --server http://127.0.0.1:8787`);
    expect(snippets.some((snippet) => snippet.text.includes(TOKEN_PLACEHOLDER))).toBe(false);
  });

  it("puts <WADDLE_TOKEN> wherever the server needs its token", () => {
    for (const snippet of getUseSnippets({ ...base, authRequired: true })) {
      expect(snippet.text, snippet.id).toContain(TOKEN_PLACEHOLDER);
    }
  });
});
