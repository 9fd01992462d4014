import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { ExportFormat } from "@waddle/protocol";
import { getDataDir, loadAgentSpec } from "./agent-source.js";
import { UsageError, type CliIo } from "./cli-io.js";
import { chatCommand } from "./chat-command.js";
import { exportCommand } from "./export-command.js";
import { runLocal } from "./run-local.js";
import { readToolContext } from "./read-tool-context.js";
import { resumeCommand } from "./resume-command.js";
import { runRemote } from "./run-remote.js";
import { validateCommand } from "./validate-command.js";
import { testCommand } from "./test-command.js";
import { pullCommand } from "./pull-command.js";
import { pushCommand } from "./push-command.js";
import { releaseCommand } from "./release-command.js";

export const USAGE = `Usage: waddle <command> [options]

  validate <file> [--json]                 check an agent spec; every issue with its JSON path (exit 1 on errors)
      [--server URL] [--token T]           also against a server's settings (allow-lists, secrets, MCP servers)
  run <file|agent-id> "<query>"            run an agent and print its events live
      [--server URL] [--token T]           against a running server (REST + socket.io) instead of in-process
      [--approve | --reject]               answer approval pauses without asking
      [--tool-context JSON|@file]          secrets and values for the agent's tools (sent again on resume)
      [--channel NAME]                     with --server: run what this channel serves (latest: the latest save;
                                           default: production when the agent has it, else the latest save)
      [--data-dir DIR]                     where to find saved agents in-process (default: WADDLE_DATA_DIR or ./data)
  resume <run-id> --server URL            answer a run paused on a server, then follow it to its end
      [--approve | --reject] [--token T] [--tool-context JSON|@file]
  chat <agent-id> [--server URL] [--session ID] [--channel NAME] [--token T] [--data-dir DIR]
                                           chat over many turns (a session), in-process or on a server;
                                           a new session pins what --channel serves (as run);
                                           /approve, /reject, /tasks, /quit
  export <agent-id|file> [--format json|ts|ts-project|penguiflow] [--server URL] [--token T] [--out FILE]
                                           the spec as JSON, or TypeScript that builds the same planner
  test <agent-id|spec.json> [--tests FILE] [--version N] [--server URL] [--junit out.xml] [--grep text]
                                           run the agent's test suite (default: <id>.tests.json beside the
                                           spec, or the suite the server holds); a line per case, a summary,
                                           JUnit XML; exit 0 all passed, 1 a case failed, 2 bad input
  pull <dir> --server URL [--token T]      write <dir>/agents/<id>.json, <id>.tests.json and channels.json
                                           (plus .waddle-base.json: the versions pulled, for push)
  push <dir> --server URL [--token T]      save each edited spec as a new version and edited suites; refused
                                           (exit 1, nothing saved) when the server moved past a pulled version
  release <agent-id> --channel NAME --server URL [--notes TEXT] [--version N] [--token T]
                                           point a channel at a version (default: the latest save) through the
                                           test gate; exit 0 released, 1 tests failed (cases printed), 2 bad input

In-process runs use the offline model unless the agent's LLM names a key that is set (OPENAI_API_KEY), and
follow the server's rules: an agent's llm.baseUrl and apiKeyEnv must be allowed by OPENAI_BASE_URL,
WADDLE_LLM_ALLOW and WADDLE_LLM_KEY_ENVS; http tools reach only WADDLE_HTTP_ALLOW.
`;

const OPTIONS = {
  server: { type: "string" },
  token: { type: "string" },
  format: { type: "string", default: "json" },
  out: { type: "string" },
  "data-dir": { type: "string" },
  "tool-context": { type: "string" },
  session: { type: "string" },
  channel: { type: "string" },
  approve: { type: "boolean", default: false },
  reject: { type: "boolean", default: false },
  json: { type: "boolean", default: false },
  tests: { type: "string" },
  version: { type: "string" },
  junit: { type: "string" },
  grep: { type: "string" },
  notes: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** Runs one command; returns the exit code (0 ok, 1 failure, 2 usage, 3 paused without an answer). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    const [command, ...rest] = positionals;
    if (values.help || command === undefined || command === "help") {
      io.stdout.write(USAGE);
      return command === undefined && !values.help ? 2 : 0;
    }
    const server = values.server === undefined ? undefined : readServerUrl(values.server);
    const token = values.token ?? io.env.WADDLE_TOKEN;
    const dataDir = getDataDir({
      ...(values["data-dir"] ? { dataDir: values["data-dir"] } : {}),
      env: io.env,
      cwd: io.cwd,
    });
    if (values.approve && values.reject) throw new UsageError("Pass --approve or --reject, not both.");
    const decision = values.approve ? "approve" : values.reject ? "reject" : undefined;
    const toolContext = readToolContext(values["tool-context"], io.cwd);
    switch (command) {
      case "validate":
        if (rest.length !== 1) throw new UsageError("validate takes one file.");
        return await validateCommand({
          file: rest[0]!,
          io,
          json: values.json,
          ...(server ? { server: { url: server, ...(token ? { token } : {}) } } : {}),
        });
      case "export": {
        if (rest.length !== 1) throw new UsageError("export takes one agent id or file.");
        const format = ExportFormat.safeParse(values.format);
        if (!format.success)
          throw new UsageError(
            `--format must be one of ${ExportFormat.options.join(", ")}, not ${values.format}.`,
          );
        return await exportCommand({
          agent: rest[0]!,
          format: format.data,
          io,
          dataDir,
          ...(server ? { server } : {}),
          ...(token ? { token } : {}),
          ...(values.out ? { out: values.out } : {}),
        });
      }
      case "run": {
        if (rest.length !== 2)
          throw new UsageError(
            'run takes an agent (file or id) and a query in quotes: waddle run support-triage "…"',
          );
        const [source, query] = rest as [string, string];
        if (values.channel !== undefined && !server)
          throw new UsageError(
            "--channel needs --server: channels live on a server; in-process runs run the file or latest save.",
          );
        if (server) {
          const isId = /^[a-z0-9][a-z0-9_-]{0,63}$/.test(source) && !source.endsWith(".json");
          const agent = isId ? source : await loadAgentSpec({ source, cwd: io.cwd, dataDir });
          return await runRemote({
            agent,
            query,
            server,
            io,
            ...(token ? { token } : {}),
            ...(decision ? { decision } : {}),
            ...(toolContext ? { toolContext } : {}),
            ...(values.channel !== undefined ? { channel: values.channel } : {}),
          });
        }
        const spec = await loadAgentSpec({ source, cwd: io.cwd, dataDir });
        return await runLocal({
          spec,
          query,
          io,
          ...(decision ? { decision } : {}),
          ...(toolContext ? { toolContext } : {}),
        });
      }
      case "resume": {
        if (rest.length !== 1)
          throw new UsageError("resume takes one run id: waddle resume run_… --server URL");
        if (!server)
          throw new UsageError(
            "resume needs --server URL: runs started in-process end with their command, only a server keeps them.",
          );
        return await resumeCommand({
          runId: rest[0]!,
          server,
          io,
          ...(token ? { token } : {}),
          ...(decision ? { decision } : {}),
          ...(toolContext ? { toolContext } : {}),
        });
      }
      case "chat": {
        if (rest.length !== 1) throw new UsageError("chat takes one agent id: waddle chat support-triage");
        if (values.channel !== undefined && values.session)
          throw new UsageError(
            "--channel picks a new session's version; --session continues one on its own.",
          );
        return await chatCommand({
          agentId: rest[0]!,
          io,
          dataDir,
          ...(server ? { server } : {}),
          ...(token ? { token } : {}),
          ...(values.session ? { sessionId: values.session } : {}),
          ...(values.channel !== undefined ? { channel: values.channel } : {}),
        });
      }
      case "test": {
        if (rest.length !== 1)
          throw new UsageError("test takes one agent id or spec file: waddle test support-triage");
        return await testCommand({
          source: rest[0]!,
          io,
          dataDir,
          ...(server ? { server } : {}),
          ...(token ? { token } : {}),
          ...(values.tests ? { testsFile: values.tests } : {}),
          ...(values.version ? { version: values.version } : {}),
          ...(values.junit ? { junit: values.junit } : {}),
          ...(values.grep !== undefined ? { grep: values.grep } : {}),
        });
      }
      case "pull":
      case "push": {
        if (rest.length !== 1)
          throw new UsageError(`${command} takes one folder: waddle ${command} agents-repo`);
        if (!server) throw new UsageError(`${command} needs --server URL: the server the agents live on.`);
        const run = command === "pull" ? pullCommand : pushCommand;
        return await run({ dir: rest[0]!, server, io, ...(token ? { token } : {}) });
      }
      case "release": {
        if (rest.length !== 1)
          throw new UsageError(
            "release takes one agent id: waddle release support-triage --channel production",
          );
        if (!server) throw new UsageError("release needs --server URL: channels live on a server.");
        return await releaseCommand({
          agentId: rest[0]!,
          channel: values.channel,
          server,
          io,
          ...(token ? { token } : {}),
          ...(values.notes !== undefined ? { notes: values.notes } : {}),
          ...(values.version !== undefined ? { version: values.version } : {}),
        });
      }
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr.write(`waddle: ${(error as Error).message}\n`);
    return 1;
  }
}

/**
 * `--server` as given, once it is an http(s) URL: without this, "localhost:3000" failed later as "Cannot reach
 * localhost:3000: unknown scheme", and an empty value (an unset variable) quietly ran the agent in-process.
 */
function readServerUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== "http:" && url?.protocol !== "https:") {
    throw new UsageError(
      `--server must be an http:// or https:// URL such as http://127.0.0.1:3000, not ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/** The process's streams and a terminal prompt when stdin is one. */
export function getProcessIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    onInterrupt: (handler) => {
      process.once("SIGINT", handler);
      return () => void process.off("SIGINT", handler);
    },
    ...(process.stdin.isTTY
      ? {
          prompt: async (question: string) => {
            const readline = createInterface({ input: process.stdin, output: process.stderr });
            try {
              return await readline.question(question);
            } finally {
              readline.close();
            }
          },
        }
      : {}),
  };
}
