import { existsSync } from "node:fs";
import path from "node:path";
import {
  AgentSpec,
  AgentVersionsResponse,
  CreateAgentResponse,
  formatJsonPath,
  TestSuite,
  UpdateAgentResponse,
} from "@waddle/protocol";
import {
  BASE_FILE,
  getContentHash,
  getSpecPath,
  getTestsPath,
  listAgentFiles,
  readBaseFile,
  stringifyFile,
  writeFile,
  type AgentBase,
} from "./agent-files.js";
import { UsageError, type CliIo } from "./cli-io.js";
import { readJsonFile } from "./read-spec-file.js";
import { ServerClient, ServerRequestError } from "./server-client.js";

interface LocalAgent {
  id: string;
  spec: unknown;
  specHash: string;
  suite: unknown;
  testsHash: string | undefined;
  base: AgentBase | undefined;
}

/** The message of versions push saves: versions with it came from files, any other from elsewhere. */
export const PUSH_MESSAGE = "waddle push";

/**
 * `waddle push <dir>`: saves each edited spec as a new version on top of the version it was pulled at, and
 * replaces edited suites. A spec whose base the server has moved past is refused before anything is saved,
 * naming the agent (pull, merge, push again): never overwritten. Exit 1 then, 2 on a malformed file.
 */
export async function pushCommand(options: {
  dir: string;
  server: string;
  token?: string;
  io: CliIo;
}): Promise<number> {
  const { io } = options;
  const client = new ServerClient(options.server, options.token);
  const dir = path.resolve(io.cwd, options.dir);
  const base = readBaseFile(dir, client.baseUrl);
  const agents = listAgentFiles(dir).map((id) => readLocalAgent(dir, id, base.agents[id]));
  const edited = agents.filter((agent) => agent.specHash !== agent.base?.specHash);
  const stale: string[] = [];
  for (const agent of edited) {
    if (!agent.base) continue;
    const newer = await getNewerVersions(client, agent.id, agent.base.version);
    const elsewhere = newer.filter((version) => version.message !== PUSH_MESSAGE);
    if (elsewhere.length > 0) {
      const saved = elsewhere.map((version) => `v${version.version}`).join(", ");
      stale.push(`${agent.id} (pulled at v${agent.base.version}; saved since, not by push: ${saved})`);
    }
    // Versions an earlier push saved (CI does not commit .waddle-base.json back) are this folder's own.
    const latest = newer.at(-1)?.version;
    if (latest !== undefined) agent.base = { ...agent.base, version: latest };
  }
  if (stale.length > 0) {
    io.stderr.write(
      `waddle: refused, nothing pushed: the server has newer versions of ${stale.join(", ")}. ` +
        `Pull into another folder, merge your edits, and push again.\n`,
    );
    return 1;
  }
  for (const agent of agents) {
    const pushed = await pushAgent(client, agent, io);
    base.agents[agent.id] = pushed;
  }
  writeFile(path.join(dir, BASE_FILE), stringifyFile(base, { sortKeys: true }));
  return 0;
}

async function pushAgent(client: ServerClient, agent: LocalAgent, io: CliIo): Promise<AgentBase> {
  const route = `/api/agents/${encodeURIComponent(agent.id)}`;
  let version = agent.base?.version;
  if (agent.specHash === agent.base?.specHash) {
    io.stdout.write(`unchanged ${agent.id} v${agent.base.version}\n`);
  } else if (agent.base) {
    const body = { spec: agent.spec, baseVersion: agent.base.version, message: PUSH_MESSAGE };
    const saved = UpdateAgentResponse.parse((await client.request("PUT", route, body)).json);
    version = saved.version;
    io.stdout.write(`saved ${agent.id} v${saved.version} (was v${agent.base.version})\n`);
  } else {
    const saved = CreateAgentResponse.parse((await client.request("POST", "/api/agents", agent.spec)).json);
    version = saved.version;
    io.stdout.write(`created ${agent.id} v${saved.version}\n`);
  }
  let testsHash = agent.base?.testsHash;
  if (agent.suite !== undefined && agent.testsHash !== testsHash) {
    const suite = TestSuite.parse((await client.request("PUT", `${route}/tests`, agent.suite)).json);
    testsHash = agent.testsHash;
    io.stdout.write(`updated ${agent.id} tests (${suite.cases.length} cases)\n`);
  }
  return { version: version!, specHash: agent.specHash, ...(testsHash ? { testsHash } : {}) };
}

function readLocalAgent(dir: string, id: string, base: AgentBase | undefined): LocalAgent {
  const specFile = getSpecPath(dir, id);
  const spec = readOrUsage(specFile, dir);
  const parsed = AgentSpec.safeParse(spec);
  if (!parsed.success) throw new UsageError(describeIssue(specFile, "an agent spec", parsed.error.issues));
  if (parsed.data.id !== id) {
    throw new UsageError(
      `${specFile} holds agent "${parsed.data.id}": its file must be named ${parsed.data.id}.json.`,
    );
  }
  const testsFile = getTestsPath(dir, id);
  const suite = existsSync(testsFile) ? readOrUsage(testsFile, dir) : undefined;
  if (suite !== undefined) {
    const parsedSuite = TestSuite.safeParse(suite);
    if (!parsedSuite.success)
      throw new UsageError(describeIssue(testsFile, "a test suite", parsedSuite.error.issues));
  }
  return {
    id,
    spec,
    specHash: getContentHash(spec),
    suite,
    testsHash: suite === undefined ? undefined : getContentHash(suite),
    base,
  };
}

function readOrUsage(file: string, dir: string): unknown {
  try {
    return readJsonFile(file, dir);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function describeIssue(
  file: string,
  what: string,
  issues: readonly { path: PropertyKey[]; message: string }[],
) {
  const issue = issues[0];
  return `${file} is not ${what}: ${formatJsonPath(issue?.path ?? [])}: ${issue?.message ?? "invalid"}`;
}

/** The versions saved after `version`, oldest first; none when the agent is gone (the save then says 404). */
async function getNewerVersions(client: ServerClient, id: string, version: number) {
  try {
    const response = await client.request("GET", `/api/agents/${encodeURIComponent(id)}/versions`);
    return AgentVersionsResponse.parse(response.json)
      .versions.filter((saved) => saved.version > version)
      .sort((a, b) => a.version - b.version);
  } catch (error) {
    if (error instanceof ServerRequestError && error.status === 404) return [];
    throw error;
  }
}
