import { writeFileSync } from "node:fs";
import path from "node:path";
import { exportAgentTypeScript } from "@waddle/server";
import { getDataDir, loadAgentSpec } from "./agent-source.js";
import type { CliIo } from "./cli-io.js";
import { ServerClient } from "./server-client.js";

export interface ExportCommandOptions {
  agent: string;
  format: "json" | "ts";
  server?: string;
  token?: string;
  out?: string;
  dataDir?: string;
  io: CliIo;
}

/** `waddle export <agent-id> --format json|ts [--server URL] [--out FILE]`. */
export async function exportCommand(options: ExportCommandOptions): Promise<number> {
  const { io } = options;
  let text: string;
  if (options.server) {
    const client = new ServerClient(options.server, options.token);
    const response = await client.request(
      "GET",
      `/api/agents/${encodeURIComponent(options.agent)}/export?format=${options.format}`,
    );
    text = options.format === "json" ? `${JSON.stringify(response.json, null, 2)}\n` : response.text;
  } else {
    const spec = await loadAgentSpec({
      source: options.agent,
      cwd: io.cwd,
      dataDir: getDataDir({ ...options, env: io.env, cwd: io.cwd }),
    });
    text = options.format === "json" ? `${JSON.stringify(spec, null, 2)}\n` : exportAgentTypeScript(spec);
  }
  if (options.out) {
    writeFileSync(path.resolve(io.cwd, options.out), text);
    io.stderr.write(`wrote ${options.out}\n`);
  } else {
    io.stdout.write(text);
  }
  return 0;
}
