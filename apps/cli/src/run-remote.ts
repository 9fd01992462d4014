import type { AgentRecord, AgentSpec } from "@waddle/protocol";
import type { CliIo } from "./cli-io.js";
import { followRun } from "./follow-run.js";
import { ServerClient, ServerRequestError } from "./server-client.js";

export interface RunRemoteOptions {
  /** An agent id on the server, or a spec (from a file) to save there first. */
  agent: string | AgentSpec;
  query: string;
  server: string;
  token?: string;
  decision?: "approve" | "reject";
  /** Secrets and values for the agent's tools; sent with the start and again with every resume. */
  toolContext?: Record<string, unknown>;
  /** Run what this channel serves (`latest`: the latest save); without it the server's default, production. */
  channel?: string;
  io: CliIo;
}

/** Saves a spec from a file on the server: created, or a new version when it differs. */
async function saveSpec(client: ServerClient, spec: AgentSpec, io: CliIo): Promise<string> {
  try {
    const current = (await client.request("GET", `/api/agents/${spec.id}`)).json as AgentRecord;
    if (JSON.stringify(current.spec) === JSON.stringify(spec)) return spec.id;
    const saved = (
      await client.request("PUT", `/api/agents/${spec.id}`, {
        spec,
        baseVersion: current.version,
        message: "waddle run",
      })
    ).json as { version: number };
    io.stderr.write(`saved ${spec.id} as version ${saved.version}\n`);
  } catch (error) {
    if (!(error instanceof ServerRequestError) || error.status !== 404) throw error;
    await client.request("POST", "/api/agents", spec);
    io.stderr.write(`created agent ${spec.id}\n`);
  }
  return spec.id;
}

/** Starts a run on a server over REST and follows it over socket.io (`followRun`). */
export async function runRemote(options: RunRemoteOptions): Promise<number> {
  const { io } = options;
  const client = new ServerClient(options.server, options.token);
  const agentId =
    typeof options.agent === "string" ? options.agent : await saveSpec(client, options.agent, io);
  const withContext = options.toolContext ? { toolContext: options.toolContext } : {};
  const withChannel = options.channel === undefined ? {} : { channel: options.channel };
  const { runId } = (
    await client.request("POST", "/api/runs", {
      agentId,
      query: options.query,
      ...withContext,
      ...withChannel,
    })
  ).json as { runId: string };
  io.stderr.write(`run ${runId} on ${client.baseUrl}\n`);
  return followRun({
    client,
    runId,
    afterSeq: 0,
    io,
    ...(options.token ? { token: options.token } : {}),
    ...(options.decision ? { decision: options.decision } : {}),
    ...(options.toolContext ? { toolContext: options.toolContext } : {}),
  });
}
