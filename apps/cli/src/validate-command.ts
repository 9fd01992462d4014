import { validateAgentSpec, type SpecIssue } from "@waddle/protocol";
import type { CliIo } from "./cli-io.js";
import { readJsonFile } from "./read-spec-file.js";

/** One issue as a line: severity, JSON path, code and what to do. */
export function formatIssue(issue: SpecIssue): string {
  return `${issue.severity === "error" ? "error  " : "warning"} ${issue.path}  ${issue.code}: ${issue.message}`;
}

/** `waddle validate <file>`: prints every issue with its path; exit 1 when there is an error. */
export async function validateCommand(options: { file: string; io: CliIo; json: boolean }): Promise<number> {
  const { io } = options;
  let input: unknown;
  try {
    input = readJsonFile(options.file, io.cwd);
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
  const result = validateAgentSpec(input);
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ ok: result.ok, issues: result.issues }, null, 2)}\n`);
    return result.ok ? 0 : 1;
  }
  for (const issue of result.issues) io.stdout.write(`${formatIssue(issue)}\n`);
  const errors = result.issues.filter((issue) => issue.severity === "error").length;
  const warnings = result.issues.length - errors;
  if (result.ok) {
    io.stdout.write(
      `${options.file}: valid agent "${result.spec.id}" (${result.spec.tools.length} tools)${warnings ? `, ${warnings} warning(s)` : ""}\n`,
    );
    return 0;
  }
  io.stdout.write(`${options.file}: ${errors} error(s)${warnings ? `, ${warnings} warning(s)` : ""}\n`);
  return 1;
}
