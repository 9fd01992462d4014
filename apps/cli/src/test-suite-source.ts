import { existsSync } from "node:fs";
import path from "node:path";
import { formatJsonPath, TestSuite } from "@waddle/protocol";
import { EXAMPLES_DIR } from "./agent-source.js";
import { UsageError } from "./cli-io.js";
import { readJsonFile } from "./read-spec-file.js";

/**
 * The suite file of `waddle test`: `--tests FILE`, else `<id>.tests.json` beside a spec file, else the
 * example agent's. Undefined when there is none (a server run uses the suite it holds). A file that is not a
 * suite is a usage error naming the JSON path to fix.
 */
export function readTestSuite(options: {
  testsFile: string | undefined;
  source: string;
  agentId: string;
  cwd: string;
}): TestSuite | undefined {
  const file = options.testsFile ?? findSuiteFile(options);
  if (file === undefined) return undefined;
  let json: unknown;
  try {
    json = readJsonFile(file, options.cwd);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const parsed = TestSuite.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `${file} is not a test suite: ${formatJsonPath((issue?.path ?? []) as PropertyKey[])}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

function findSuiteFile(options: { source: string; agentId: string; cwd: string }): string | undefined {
  const candidates = [
    ...(options.source.endsWith(".json")
      ? [path.join(path.dirname(path.resolve(options.cwd, options.source)), `${options.agentId}.tests.json`)]
      : []),
    path.join(EXAMPLES_DIR, "agents", `${options.agentId}.tests.json`),
  ];
  return candidates.find((candidate) => existsSync(candidate));
}
