// `npm run bench -- [name ...] [--write] [--quick]`: runs each benchmark in its own Node process, prints
// its tables with the machine they ran on, and with --write keeps them in docs/benchmarks.md.
import { execFileSync, fork } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BenchArgsError, BENCH_USAGE, parseBenchArgs } from "./bench-args.js";
import { applyBenchSection, getBenchCommand } from "./bench-doc.js";
import type { BenchReport } from "./bench-report.js";
import { formatReport } from "./format-report.js";
import { getMeasuredCode } from "./measured-code.js";

const DOC = fileURLToPath(new URL("../../docs/benchmarks.md", import.meta.url));
const CHILD = fileURLToPath(new URL("./run-benchmark.ts", import.meta.url));

/**
 * Node flags for the children: the same loader as this process (tsx, for the harness's own TypeScript)
 * plus a callable `gc()`. The workspace packages resolve as here: to their `dist/` build unless this
 * process was started with `--conditions=source` (see measured-code.ts).
 */
function childExecArgv(): string[] {
  const flags = [...process.execArgv];
  if (!flags.includes("--expose-gc")) flags.push("--expose-gc");
  return flags;
}

/** Builds the packages the benchmarks import (`tsc -b` only rebuilds what changed), as `npm start` does. */
function buildPackages(): void {
  process.stderr.write("building the workspace packages (tsc -b tsconfig.build.json)…\n");
  const tsc = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));
  execFileSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], {
    cwd: fileURLToPath(new URL("../../", import.meta.url)),
    stdio: "inherit",
  });
}

/** The commit the code under test is at, and whether the runtime's sources had uncommitted changes. */
function getRevision(): string {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();
    const dirty = git("status", "--porcelain", "--", "packages", "server", "apps").length > 0;
    return `commit ${git("rev-parse", "--short", "HEAD")}${dirty ? " plus uncommitted changes in packages/, server/ or apps/" : ""}`;
  } catch {
    return "an unknown commit (git unavailable)";
  }
}

function runChild(name: string, quick: boolean): Promise<BenchReport> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [name, ...(quick ? ["--quick"] : [])], {
      execArgv: childExecArgv(),
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let report: BenchReport | undefined;
    child.on("message", (message) => (report = message as BenchReport));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (report !== undefined) resolve(report);
      else reject(new Error(`benchmark "${name}" ended (${signal ?? code}) without a report`));
    });
  });
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  let args;
  try {
    args = parseBenchArgs(argv);
  } catch (error) {
    if (error instanceof BenchArgsError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (args.help) {
    process.stdout.write(`${BENCH_USAGE}\n`);
    return 0;
  }
  const command = getBenchCommand(argv);
  const code = getMeasuredCode();
  if (!code.sources) {
    try {
      buildPackages();
    } catch {
      process.stderr.write("The build failed (see above): fix it, or run the benchmarks on the sources.\n");
      return 1;
    }
  }
  process.stderr.write(`${code.description}\n`);
  let failures = 0;
  for (const name of args.names) {
    process.stderr.write(`running ${name}…\n`);
    let report: BenchReport;
    try {
      report = await runChild(name, args.quick);
    } catch (error) {
      failures += 1;
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      continue;
    }
    const text = formatReport(report);
    process.stdout.write(`\n${text}\n\n`);
    if (args.write) {
      const measured = new Date().toISOString().slice(0, 16).replace("T", " ");
      const body = formatReport(report, [
        `Command: \`${command}\` · measured ${measured} UTC at ${getRevision()}`,
      ]);
      const doc = existsSync(DOC) ? readFileSync(DOC, "utf8") : "# Benchmarks\n";
      writeFileSync(DOC, applyBenchSection(doc, { name, body }));
      process.stderr.write(`wrote ${name} into docs/benchmarks.md\n`);
    }
  }
  return failures === 0 ? 0 : 1;
}

process.exitCode = await main();
