import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ToolSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createRunSetup } from "../run-setup.js";
import { ConfigError } from "../shared/config-error.js";
import { readRunSettings } from "../run-settings.js";
import { collectSecretValues } from "../secrets/collect-secret-values.js";
import { readMcpServersConfig, resolveMcpConfigValues } from "./mcp-servers-config.js";

const EXAMPLE = {
  mcpServers: {
    files: {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/data"],
      env: { GITHUB_TOKEN: { secret: "GITHUB" }, LOG_LEVEL: "warn" },
    },
    search: {
      type: "http",
      url: "https://mcp.example.com/mcp",
      headers: { Authorization: { secret: "SEARCH_AUTH" } },
    },
    old: { command: "old-server", disabled: true },
  },
};

describe("readMcpServersConfig", () => {
  it("reads the mcpServers format inline: stdio and Streamable HTTP servers, disabled ones left out", () => {
    expect(readMcpServersConfig(JSON.stringify(EXAMPLE), "/repo")).toEqual([
      {
        name: "files",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/data"],
        env: { GITHUB_TOKEN: { secret: "GITHUB" }, LOG_LEVEL: "warn" },
      },
      {
        name: "search",
        transport: "http",
        url: "https://mcp.example.com/mcp",
        headers: { Authorization: { secret: "SEARCH_AUTH" } },
      },
    ]);
    expect(readMcpServersConfig(undefined, "/repo")).toEqual([]);
    expect(readMcpServersConfig("  ", "/repo")).toEqual([]);
  });

  it("reads a JSON file, relative to the working folder, and resolves a server's cwd", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "waddle-mcp-config-"));
    try {
      writeFileSync(
        path.join(dir, "mcp.json"),
        JSON.stringify({ mcpServers: { local: { command: "node", args: ["s.js"], cwd: "servers" } } }),
      );
      expect(readMcpServersConfig("mcp.json", dir)).toEqual([
        {
          name: "local",
          transport: "stdio",
          command: "node",
          args: ["s.js"],
          env: {},
          cwd: path.join(dir, "servers"),
        },
      ]);
      expect(() => readMcpServersConfig("missing.json", dir)).toThrow(/cannot be read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["not JSON", "{nope", /not valid JSON/],
    ["neither mcpServers nor servers", JSON.stringify({ tools: {} }), /lists no "mcpServers"/],
    ["neither command nor url", JSON.stringify({ mcpServers: { a: { args: [] } } }), /mcpServers\.a/],
    [
      "a transport Waddle does not speak",
      JSON.stringify({ mcpServers: { a: { type: "ws", url: "https://x/ws" } } }),
      /mcpServers\.a\.type: "ws" is not a transport/,
    ],
    [
      "both a command and a url without a type",
      JSON.stringify({ mcpServers: { a: { command: "x", url: "https://x/mcp" } } }),
      /both a "command" and a "url"/,
    ],
    [
      "a timeout that is not seconds above 0",
      JSON.stringify({ mcpServers: { a: { command: "x", timeout: 0 } } }),
      /mcpServers\.a\.timeout/,
    ],
    [
      "a placeholder inside a longer header value",
      JSON.stringify({
        servers: {
          a: { type: "http", url: "https://x/mcp", headers: { Authorization: "Bearer ${input:token}" } },
        },
      }),
      /placeholder inside a longer value/,
    ],
    [
      "a server listed in both mcpServers and servers",
      JSON.stringify({ mcpServers: { a: { command: "x" } }, servers: { a: { command: "y" } } }),
      /listed twice/,
    ],
    [
      "a URL that is not http(s)",
      JSON.stringify({ mcpServers: { a: { url: "file:///etc/passwd" } } }),
      /mcpServers\.a/,
    ],
    ["a bad server name", JSON.stringify({ mcpServers: { "a b": { command: "x" } } }), /server names/],
    [
      "a secret that is not a variable name",
      JSON.stringify({ mcpServers: { a: { command: "x", env: { K: { secret: "lower" } } } } }),
      /mcpServers\.a/,
    ],
  ])("refuses %s with a ConfigError that names WADDLE_MCP_SERVERS", (_name, value, message) => {
    expect(() => readMcpServersConfig(value, "/repo")).toThrow(ConfigError);
    expect(() => readMcpServersConfig(value, "/repo")).toThrow(message);
  });

  it("is refused at start when a server names a secret the environment does not hold", () => {
    const env = { WADDLE_MCP_SERVERS: JSON.stringify(EXAMPLE), WADDLE_SECRET_GITHUB: "ghp_0123456789" };
    expect(() => readRunSettings(env, "/repo")).toThrow(/WADDLE_SECRET_SEARCH_AUTH/);
    const settings = readRunSettings({ ...env, WADDLE_SECRET_SEARCH_AUTH: "Bearer abcdef123456" }, "/repo");
    expect(settings.mcpServers?.map((server) => server.name)).toEqual(["files", "search"]);
  });

  it("resolves secret values by name, and the redactor knows literal secret-looking ones", () => {
    expect(
      resolveMcpConfigValues(
        { A: "literal", B: { secret: "B" } },
        { secrets: { B: "from-secret" }, server: "s" },
      ),
    ).toEqual({ A: "literal", B: "from-secret" });
    expect(() => resolveMcpConfigValues({ B: { secret: "B" } }, { secrets: {}, server: "s" })).toThrow(
      /WADDLE_SECRET_B/,
    );
    const settings = readRunSettings(
      {
        WADDLE_MCP_SERVERS: JSON.stringify({
          mcpServers: {
            gh: {
              command: "gh-mcp",
              env: { GITHUB_TOKEN: "ghp_literal_0123456789", PATH_HINT: "/usr/local/bin" },
            },
          },
        }),
      },
      "/repo",
    );
    const secrets = collectSecretValues({ env: {}, settings });
    expect(secrets).toContain("ghp_literal_0123456789");
    expect(secrets).not.toContain("/usr/local/bin");
  });
});

/** Config files as Claude Desktop, Cline and VS Code write them (server/src/testing/mcp-client-configs). */
const CONFIGS = path.join(path.dirname(fileURLToPath(import.meta.url)), "../testing/mcp-client-configs");

describe("the config files other MCP clients write", () => {
  it("reads Claude Desktop's file, noting its other top-level keys", () => {
    const servers = readMcpServersConfig(path.join(CONFIGS, "claude_desktop_config.json"), "/repo");
    expect(servers.map((server) => server.name)).toEqual(["filesystem", "github"]);
    expect(servers[1]).toMatchObject({
      transport: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-github"],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_literal_0123456789abcdef" },
    });
    expect(servers[0]?.notes).toEqual([
      'WADDLE_MCP_SERVERS: top-level key "globalShortcut" is not about MCP servers and is ignored',
      'WADDLE_MCP_SERVERS: top-level key "preferences" is not about MCP servers and is ignored',
    ]);
    expect(servers[1]?.notes).toBeUndefined();
  });

  it("reads Cline's file: names with dots and slashes, timeout in seconds, autoApprove noted, disabled left out", () => {
    const servers = readMcpServersConfig(path.join(CONFIGS, "cline_mcp_settings.json"), "/repo");
    expect(servers).toEqual([
      {
        name: "github.com/modelcontextprotocol/servers/tree/main/src/github",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-github"],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_cline_0123456789abcdef" },
        timeoutMs: 30_000,
        notes: [expect.stringMatching(/^"autoApprove" has no meaning in Waddle: .*agent spec/)],
      },
      {
        name: "weather-sse",
        transport: "sse",
        url: "https://weather.example.com/sse",
        headers: {},
        timeoutMs: 120_000,
        notes: [expect.stringMatching(/^"autoApprove" has no meaning/)],
      },
    ]);
    // The names are valid in a spec's {kind: "mcp", server}.
    expect(
      ToolSpec.safeParse({ name: "gh", impl: { kind: "mcp", server: servers[0]!.name, tool: "search" } })
        .success,
    ).toBe(true);
  });

  it("reads VS Code's servers form: type, inputs as secrets, envFile, and keys it does not know", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "waddle-vscode-"));
    try {
      mkdirSync(path.join(dir, ".vscode"));
      copyFileSync(path.join(CONFIGS, "vscode-mcp.json"), path.join(dir, ".vscode/mcp.json"));
      writeFileSync(
        path.join(dir, ".env"),
        "# local\nPERPLEXITY_MODEL=sonar\nexport REGION='eu'\nPERPLEXITY_API_KEY=overridden\n",
      );
      const servers = readMcpServersConfig(".vscode/mcp.json", dir);
      expect(servers.map((server) => [server.name, server.transport])).toEqual([
        ["Perplexity", "stdio"],
        ["github", "http"],
        ["legacy-docs", "sse"],
        ["fetch", "stdio"],
      ]);
      expect(servers[0]).toMatchObject({
        // `env` wins over the envFile's value of the same name.
        env: { PERPLEXITY_MODEL: "sonar", REGION: "eu", PERPLEXITY_API_KEY: { secret: "PERPLEXITY_KEY" } },
      });
      expect(servers[0]?.notes?.[0]).toMatch(/"inputs" are not prompted for/);
      expect(servers[1]).toMatchObject({
        url: "https://api.githubcopilot.com/mcp/",
        headers: { Authorization: { secret: "GITHUB_TOKEN" } },
      });
      expect(servers[3]?.notes).toEqual(['"dev" is not a key Waddle reads and is ignored']);
      // An input's secret must be set, like any other.
      const env = { WADDLE_MCP_SERVERS: path.join(dir, ".vscode/mcp.json") };
      expect(() => readRunSettings(env, dir)).toThrow(/WADDLE_SECRET_PERPLEXITY_KEY/);
      const settings = readRunSettings(
        {
          ...env,
          WADDLE_SECRET_PERPLEXITY_KEY: "pplx-0123456789",
          WADDLE_SECRET_GITHUB_TOKEN: "Bearer ghp_x0123456789",
        },
        dir,
      );
      expect(settings.mcpServers).toHaveLength(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes the legacy SSE transport from type, transportType, or a URL ending in /sse", () => {
    const read = (entry: Record<string, unknown>) =>
      readMcpServersConfig(JSON.stringify({ mcpServers: { s: entry } }), "/repo")[0];
    expect(read({ type: "sse", url: "https://x.example/events" })).toMatchObject({ transport: "sse" });
    expect(read({ transportType: "sse", url: "https://x.example/events" })).toMatchObject({
      transport: "sse",
    });
    expect(read({ url: "https://x.example/sse" })).toMatchObject({
      transport: "sse",
      notes: [expect.stringMatching(/ends in \/sse/)],
    });
    expect(read({ type: "http", url: "https://x.example/sse" })).toMatchObject({ transport: "http" });
    expect(read({ type: "streamableHttp", url: "https://x.example/mcp" })).toMatchObject({
      transport: "http",
    });
    expect(read({ serverUrl: "https://x.example/mcp" })).toMatchObject({
      transport: "http",
      url: "https://x.example/mcp",
    });
  });

  it("notes keys it does not read on any entry, never refusing them", () => {
    const [server] = readMcpServersConfig(
      JSON.stringify({
        mcpServers: { s: { command: "x", alwaysAllow: ["a"], icon: "🦆", headers: { A: "b" } } },
      }),
      "/repo",
    );
    expect(server?.notes).toEqual([
      expect.stringMatching(/^"alwaysAllow" has no meaning in Waddle/),
      '"icon" is not a key Waddle reads and is ignored',
      '"headers" is for HTTP servers and is ignored for a stdio one',
    ]);
  });

  it("logs the notes through the logger when the server starts", () => {
    const lines: string[] = [];
    const logger = {
      debug: () => undefined,
      info: (message: string, fields?: Record<string, unknown>) =>
        void lines.push(`${message} ${JSON.stringify(fields)}`),
      warn: () => undefined,
      error: () => undefined,
    };
    const settings = readRunSettings(
      { WADDLE_MCP_SERVERS: path.join(CONFIGS, "claude_desktop_config.json") },
      "/repo",
    );
    return createRunSetup({ env: {}, settings, exampleToolsDir: null, logger }).then(async (setup) => {
      expect(lines.filter((line) => line.includes("globalShortcut"))).toHaveLength(1);
      expect(lines.find((line) => line.includes("preferences"))).toContain('"server":"filesystem"');
      await setup.mcp.close();
    });
  });
});
