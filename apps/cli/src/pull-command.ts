import path from "node:path";
import { AgentRecord, AgentsListResponse, ChannelsResponse, TestSuite } from "@waddle/protocol";
import {
  BASE_FILE,
  CHANNELS_FILE,
  getContentHash,
  getSpecPath,
  getTestsPath,
  stringifyFile,
  writeFile,
  type BaseFile,
} from "./agent-files.js";
import type { CliIo } from "./cli-io.js";
import { ServerClient } from "./server-client.js";

/**
 * `waddle pull <dir>`: every agent's latest spec, its suite (when it has cases) and the channels, as
 * pretty, stable files for Git; plus `.waddle-base.json`, the versions they were pulled at, for push.
 */
export async function pullCommand(options: {
  dir: string;
  server: string;
  token?: string;
  io: CliIo;
}): Promise<number> {
  const client = new ServerClient(options.server, options.token);
  const dir = path.resolve(options.io.cwd, options.dir);
  const list = AgentsListResponse.parse((await client.request("GET", "/api/agents")).json);
  const base: BaseFile = { server: client.baseUrl, agents: {} };
  const channels: Record<string, Record<string, number>> = {};
  for (const { id } of [...list.agents].sort((a, b) => a.id.localeCompare(b.id))) {
    const route = `/api/agents/${encodeURIComponent(id)}`;
    const record = AgentRecord.parse((await client.request("GET", route)).json);
    const suite = TestSuite.parse((await client.request("GET", `${route}/tests`)).json);
    const agentChannels = ChannelsResponse.parse((await client.request("GET", `${route}/channels`)).json);
    writeFile(getSpecPath(dir, id), stringifyFile(record.spec));
    base.agents[id] = { version: record.version, specHash: getContentHash(record.spec) };
    if (suite.cases.length > 0) {
      const file = { version: suite.version, agentId: id, cases: suite.cases };
      writeFile(getTestsPath(dir, id), stringifyFile(file));
      base.agents[id].testsHash = getContentHash(file);
    }
    if (agentChannels.channels.length > 0) {
      channels[id] = Object.fromEntries(agentChannels.channels.map(({ name, version }) => [name, version]));
    }
    options.io.stdout.write(
      `pulled ${id} v${record.version}${suite.cases.length > 0 ? ` (${suite.cases.length} test cases)` : ""}\n`,
    );
  }
  writeFile(path.join(dir, CHANNELS_FILE), stringifyFile(channels, { sortKeys: true }));
  writeFile(path.join(dir, BASE_FILE), stringifyFile(base, { sortKeys: true }));
  options.io.stdout.write(`${list.agents.length} agents in ${options.dir}\n`);
  return 0;
}
