import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnServer } from "@waddle/server/testing";
import { startGateServer } from "./gate-server.js";
import { startLlmFixture } from "./llm-fixture.js";

/** The MCP fixture server (written with the official SDK), from the server's build: stdio, no network. */
const MCP_FIXTURE = path.join(import.meta.dirname, "../../server/dist/testing/mcp-fixture-server.js");

/**
 * The MCP server the e2e server lists as `fixture` (tools echo, add, slow, fail, crash, stats, …, and
 * `gate`, which waits on a gate of the gate server).
 */
function getMcpServers(gatesURL: string): string {
  return JSON.stringify({
    mcpServers: {
      fixture: {
        command: process.execPath,
        args: [MCP_FIXTURE, "--stdio"],
        env: { WADDLE_MCP_FIXTURE_GATES: gatesURL },
      },
    },
  });
}

/**
 * Starts the built server (`server/dist/main.js`) on a free port with a fresh data directory and the
 * offline model, and publishes its URL as `WADDLE_E2E_URL` for the specs. Beside it runs the local
 * OpenAI-compatible fixture (`llm-fixture.ts`), which the server allows as an LLM endpoint: agents run
 * offline unless their `llm` names the fixture. The server lists one MCP server, `fixture` (stdio, from
 * `server/dist/testing/mcp-fixture-server.js`). The gate server (`gate-server.ts`) holds gated tools until
 * a spec opens their gate; its tool side is on the server's http allow-list. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const gates = await startGateServer();
  const llmFixture = await startLlmFixture();
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-e2e-"));
  const server = await spawnServer({
    code: "built",
    inheritEnv: true,
    env: {
      WADDLE_DATA_DIR: dataDir,
      WADDLE_TOKEN: "",
      OPENAI_API_KEY: "",
      NODE_ENV: "production",
      WADDLE_MCP_SERVERS: getMcpServers(gates.toolURL),
      WADDLE_HTTP_ALLOW: [process.env.WADDLE_HTTP_ALLOW, new URL(gates.toolURL).host]
        .filter(Boolean)
        .join(","),
      ...llmFixture.serverEnv,
    },
  }).catch(async (error: unknown) => {
    await llmFixture.close();
    await gates.close();
    throw error;
  });
  process.env.WADDLE_E2E_URL = server.url;
  process.env.WADDLE_E2E_DATA_DIR = dataDir;
  process.env.WADDLE_E2E_LLM_BASE_URL = llmFixture.baseURL;
  process.env.WADDLE_E2E_LLM_CONTROL_URL = llmFixture.controlURL;
  process.env.WADDLE_E2E_GATES_URL = gates.toolURL;
  process.env.WADDLE_E2E_GATES_CONTROL_URL = gates.controlURL;
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await llmFixture.close();
    await gates.close();
  };
}
