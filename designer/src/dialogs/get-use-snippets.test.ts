import { describe, expect, it } from "vitest";
import { getUseSnippets, quoteForShell, TOKEN_PLACEHOLDER } from "./get-use-snippets.js";

describe("getUseSnippets", () => {
  const base = { origin: "http://127.0.0.1:8787", agentId: "support-triage", query: "It's broken" };

  it("gives curl, the openai SDK, an MCP configuration and the CLI for this server, with no token", () => {
    const snippets = getUseSnippets({
      ...base,
      authRequired: false,
      cliPath: "/opt/waddle/apps/cli/bin/waddle.mjs",
    });
    expect(snippets.map((snippet) => [snippet.id, snippet.kind])).toEqual([
      ["curl", "shell"],
      ["openai", "node-module"],
      ["mcp", "mcp-config"],
      ["cli", "shell"],
    ]);
    const [curl, openai, mcp, cli] = snippets.map((snippet) => snippet.text);
    expect(curl).toContain("curl -sS -X POST http://127.0.0.1:8787/api/runs");
    expect(curl).toContain(`-d '{"agentId":"support-triage","query":"It'\\''s broken"}'`);
    expect(curl).toContain('curl -sS "http://127.0.0.1:8787/api/runs/$run_id/events"');
    expect(openai).toContain('baseURL: "http://127.0.0.1:8787/v1"');
    expect(openai).toContain('model: "support-triage"');
    expect(JSON.parse(mcp!)).toEqual({ mcpServers: { waddle: { url: "http://127.0.0.1:8787/mcp" } } });
    expect(cli).toBe(
      [
        "node /opt/waddle/apps/cli/bin/waddle.mjs run support-triage \\",
        "  'It'\\''s broken' \\",
        "  --server http://127.0.0.1:8787",
      ].join("\n"),
    );
    expect(snippets.some((snippet) => /\$WADDLE_TOKEN|WADDLE_TOKEN/.test(snippet.text))).toBe(false);
  });

  it("never runs the CLI through npx, which resolves an unrelated npm package named waddle", () => {
    for (const cliPath of ["/opt/waddle/apps/cli/bin/waddle.mjs", undefined]) {
      const cli = getUseSnippets({ ...base, authRequired: false, cliPath }).find(({ id }) => id === "cli")!;
      expect(cli.text).not.toMatch(/\bnpx\b|\bnpm\b/);
    }
    const fallback = getUseSnippets({ ...base, authRequired: false }).find(({ id }) => id === "cli")!;
    expect(fallback.text).toMatch(/^node apps\/cli\/bin\/waddle\.mjs run /);
    expect(fallback.hint).toContain("root of a Waddle checkout");
  });

  it("reads the token from WADDLE_TOKEN in the shell and the SDK, and marks it in the MCP configuration", () => {
    const snippets = getUseSnippets({ ...base, authRequired: true, cliPath: "/w/apps/cli/bin/waddle.mjs" });
    const byId = Object.fromEntries(snippets.map((snippet) => [snippet.id, snippet]));
    expect(byId.curl!.text.match(/-H "authorization: Bearer \$WADDLE_TOKEN"/g)).toHaveLength(2);
    expect(byId.openai!.text).toContain("apiKey: process.env.WADDLE_TOKEN");
    expect(byId.mcp!.text).toContain(`Bearer ${TOKEN_PLACEHOLDER}`);
    expect(byId.cli!.hint).toContain("WADDLE_TOKEN");
    // Nothing a shell would read as a redirection.
    for (const snippet of snippets.filter(({ kind }) => kind === "shell")) {
      expect(snippet.text).not.toContain(TOKEN_PLACEHOLDER);
      expect(snippet.text).not.toContain("<runId>");
    }
  });
});

describe("quoteForShell", () => {
  it("leaves plain words alone and quotes the rest, single quotes included", () => {
    expect(quoteForShell("/opt/waddle/apps/cli/bin/waddle.mjs")).toBe("/opt/waddle/apps/cli/bin/waddle.mjs");
    expect(quoteForShell("http://127.0.0.1:8787")).toBe("http://127.0.0.1:8787");
    expect(quoteForShell("/home/my user/waddle")).toBe("'/home/my user/waddle'");
    expect(quoteForShell("costs $5 & `more`? it's")).toBe("'costs $5 & `more`? it'\\''s'");
    expect(quoteForShell("")).toBe("''");
  });
});
