import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
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
    ["no mcpServers", JSON.stringify({ servers: {} }), /WADDLE_MCP_SERVERS at/],
    ["neither command nor url", JSON.stringify({ mcpServers: { a: { args: [] } } }), /mcpServers\.a/],
    [
      "an SSE-only server",
      JSON.stringify({ mcpServers: { a: { type: "sse", url: "https://x/sse" } } }),
      /mcpServers\.a/,
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
