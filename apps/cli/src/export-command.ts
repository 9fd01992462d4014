import { writeFileSync } from "node:fs";
import path from "node:path";
import type { ExportFormat } from "@waddle/protocol";
import { createLogger, createRunSetup, exportAgent, readRunSettings, type AgentExport } from "@waddle/server";
import { EXAMPLES_DIR, getDataDir, loadAgentSpec } from "./agent-source.js";
import type { CliIo } from "./cli-io.js";
import { ServerClient } from "./server-client.js";

export interface ExportCommandOptions {
  agent: string;
  format: ExportFormat;
  server?: string;
  token?: string;
  out?: string;
  dataDir?: string;
  io: CliIo;
}

const ZIP_FORMATS: ReadonlySet<ExportFormat> = new Set(["ts-project", "penguiflow"]);

/** Exports an agent found locally: subagents from the same places, module tools from the tool folders. */
async function exportLocally(options: ExportCommandOptions): Promise<AgentExport> {
  const { io } = options;
  const dataDir = getDataDir({ ...options, env: io.env, cwd: io.cwd });
  const spec = await loadAgentSpec({ source: options.agent, cwd: io.cwd, dataDir });
  const env = io.env as NodeJS.ProcessEnv;
  const setup = await createRunSetup({
    env,
    settings: readRunSettings(env, io.cwd),
    exampleToolsDir: path.join(EXAMPLES_DIR, "tools"),
    logger: createLogger({ level: "silent" }),
  });
  try {
    return await exportAgent({
      spec,
      format: options.format,
      registry: setup.registry,
      getAgent: (id) => loadAgentSpec({ source: id, cwd: io.cwd, dataDir }).catch(() => undefined),
    });
  } finally {
    await setup.mcp.close();
  }
}

/**
 * `waddle export <agent> --format json|ts|ts-project|penguiflow [--server URL] [--out FILE]`. Text formats go
 * to stdout without `--out`; zips go to `--out`, or to their own file name in the current folder.
 */
export async function exportCommand(options: ExportCommandOptions): Promise<number> {
  const { io, format } = options;
  let body: string | Uint8Array;
  let filename: string;
  if (options.server) {
    const client = new ServerClient(options.server, options.token);
    const response = await client.request(
      "GET",
      `/api/agents/${encodeURIComponent(options.agent)}/export?format=${format}`,
    );
    body = ZIP_FORMATS.has(format) ? response.bytes : response.text;
    filename = `${options.agent}${format === "ts-project" ? "-ts.zip" : "-penguiflow.zip"}`;
  } else {
    ({ body, filename } = await exportLocally(options));
  }
  const out = options.out ?? (typeof body === "string" ? undefined : filename);
  if (out) {
    writeFileSync(path.resolve(io.cwd, out), body);
    io.stderr.write(`wrote ${out}\n`);
  } else {
    io.stdout.write(body as string);
  }
  return 0;
}
