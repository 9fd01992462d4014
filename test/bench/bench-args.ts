import { BENCHMARK_NAMES } from "./bench-registry.js";

export interface BenchArgs {
  /** Benchmarks to run, in registry order; all of them when none is named. */
  names: string[];
  /** Write the results into docs/benchmarks.md. */
  write: boolean;
  /** Fewer iterations, for a smoke run. */
  quick: boolean;
  help: boolean;
}

/** Thrown for a command line the runner cannot follow; the message says what to type instead. */
export class BenchArgsError extends Error {
  readonly code = "invalid_bench_args" as const;
  constructor(message: string) {
    super(message);
    this.name = "BenchArgsError";
  }
}

export const BENCH_USAGE = [
  "usage: npm run bench -- [name ...] [--write] [--quick]",
  `  names: ${BENCHMARK_NAMES.join(", ")} (default: all)`,
  "  --write  put the results, with this command, into docs/benchmarks.md",
  "  --quick  fewer iterations: a smoke run, not figures to quote",
].join("\n");

/** Parses the runner's arguments (what follows `npm run bench --`). */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = { names: [], write: false, quick: false, help: false };
  const named = new Set<string>();
  for (const arg of argv) {
    if (arg === "--write") args.write = true;
    else if (arg === "--quick") args.quick = true;
    else if (arg === "--help" || arg === "-h") args.help = true;
    else if (arg.startsWith("-")) throw new BenchArgsError(`Unknown option ${arg}.\n${BENCH_USAGE}`);
    else if (!BENCHMARK_NAMES.includes(arg))
      throw new BenchArgsError(`No benchmark is named "${arg}".\n${BENCH_USAGE}`);
    else named.add(arg);
  }
  if (args.write && args.quick) {
    throw new BenchArgsError("--quick figures are not for the docs: drop --quick to --write them.");
  }
  args.names = named.size === 0 ? [...BENCHMARK_NAMES] : BENCHMARK_NAMES.filter((name) => named.has(name));
  return args;
}
