/** A table of results: printed in the terminal and written to docs/benchmarks.md as Markdown. */
export interface BenchTable {
  title: string;
  columns: readonly string[];
  rows: (string | number)[][];
}

/** One target of a benchmark (docs/benchmarks.md, "Targets in short") and whether this run met it. */
export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

/** The machine a benchmark ran on, sampled when it started (load changes during a session). */
export interface MachineInfo {
  cores: number;
  cpuModel: string;
  node: string;
  platform: string;
  totalMemGb: number;
  loadAverage: number;
  /** The 1-minute load average when the benchmark ended. */
  loadAverageEnd?: number;
  /** Which code ran: the built packages or their sources (see measured-code.ts). */
  code?: string;
}

/** What one benchmark hands back to the runner. */
export interface BenchReport {
  name: string;
  title: string;
  machine: MachineInfo;
  tables: BenchTable[];
  /** Key lines printed verbatim (e.g. `overhead-ratio: 31.2`). */
  lines: string[];
  targets: TargetCheck[];
  /** Short remarks: what was measured and how, and anything a reader must know to trust the figures. */
  notes: string[];
}

/** What every benchmark module exports. */
export interface BenchContext {
  /** Fewer iterations: a smoke run, not figures to quote. */
  quick: boolean;
  /** Progress on stderr, so that stdout stays the report. */
  log(message: string): void;
}

export type BenchResult = Omit<BenchReport, "name" | "title" | "machine">;

export type RunBenchmark = (context: BenchContext) => Promise<BenchResult>;
