import { ValidateResponse, validateAgentSpec, type SpecIssue } from "@waddle/protocol";
import type { CliIo } from "./cli-io.js";
import { readJsonFile } from "./read-spec-file.js";
import { ServerClient, ServerRequestError } from "./server-client.js";

/** One issue as a line: severity, JSON path, code and what to do. */
export function formatIssue(issue: SpecIssue): string {
  return `${issue.severity === "error" ? "error  " : "warning"} ${issue.path}  ${issue.code}: ${issue.message}`;
}

/**
 * The issues of a spec: on its own, or with `server` as that server's `POST /api/agents/validate` sees it
 * (its allow-lists, secrets, keys, MCP servers and saved agents too).
 */
async function getIssues(
  input: unknown,
  server: { url: string; token?: string } | undefined,
): Promise<{ ok: boolean; issues: SpecIssue[] }> {
  if (!server) return validateAgentSpec(input);
  const { json } = await new ServerClient(server.url, server.token).request(
    "POST",
    "/api/agents/validate",
    input,
  );
  return ValidateResponse.parse(json);
}

/** `waddle validate <file> [--server URL]`: prints every issue with its path; exit 1 when there is an error. */
export async function validateCommand(options: {
  file: string;
  io: CliIo;
  json: boolean;
  server?: { url: string; token?: string };
}): Promise<number> {
  const { io } = options;
  let input: unknown;
  try {
    input = readJsonFile(options.file, io.cwd);
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
  let result: { ok: boolean; issues: SpecIssue[] };
  try {
    result = await getIssues(input, options.server);
  } catch (error) {
    if (!(error instanceof ServerRequestError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return 1;
  }
  const spec = validateAgentSpec(input).spec;
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ ok: result.ok, issues: result.issues }, null, 2)}\n`);
    return result.ok ? 0 : 1;
  }
  for (const issue of result.issues) io.stdout.write(`${formatIssue(issue)}\n`);
  const errors = result.issues.filter((issue) => issue.severity === "error").length;
  const warnings = result.issues.length - errors;
  if (result.ok && spec) {
    io.stdout.write(
      `${options.file}: valid agent "${spec.id}" (${spec.tools.length} tools)${warnings ? `, ${warnings} warning(s)` : ""}${options.server ? ` on ${options.server.url}` : ""}\n`,
    );
    return 0;
  }
  io.stdout.write(`${options.file}: ${errors} error(s)${warnings ? `, ${warnings} warning(s)` : ""}\n`);
  return 1;
}
