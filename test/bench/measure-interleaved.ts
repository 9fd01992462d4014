/** Something to time: one call is one run of `units` units of work (steps). */
export interface Contender {
  name: string;
  units: number;
  run(): Promise<unknown>;
}

export interface MeasureOptions {
  contenders: readonly Contender[];
  /** Measured rounds; each round times every contender once, in a rotating order. */
  rounds: number;
  /** Untimed runs of each contender before anything is measured (JIT warm-up), at least this long. */
  warmupMs: number;
  /** Each sample repeats the run until it lasts about this long, so short runs are timed above noise. */
  sampleMs: number;
  /**
   * Called (and awaited) before every sample, outside the timed region: a full `gc()` when exposed, or a
   * turn of the event loop, so that what the previous sample left queued is not charged to this one.
   */
  beforeSample?: () => void | Promise<void>;
}

/** Per contender: microseconds per unit, one value per round, and how many runs each sample took. */
export interface Measurement {
  name: string;
  perUnitUs: number[];
  runsPerSample: number;
}

const now = () => process.hrtime.bigint();
const elapsedMs = (start: bigint) => Number(now() - start) / 1e6;

/**
 * Times contenders against each other on a shared, noisy machine: a warm-up, then rounds in which every
 * contender is sampled once in a rotating order, so that background load falls on all of them alike.
 */
export async function measureInterleaved(options: MeasureOptions): Promise<Measurement[]> {
  const runsPerSample: number[] = [];
  for (const contender of options.contenders) {
    const warmupStart = now();
    let runs = 0;
    while (runs < 5 || elapsedMs(warmupStart) < options.warmupMs) {
      await contender.run();
      runs += 1;
    }
    const perRunMs = elapsedMs(warmupStart) / runs;
    runsPerSample.push(Math.max(1, Math.ceil(options.sampleMs / Math.max(perRunMs, 1e-3))));
  }
  const samples: number[][] = options.contenders.map(() => []);
  for (let round = 0; round < options.rounds; round += 1) {
    for (let offset = 0; offset < options.contenders.length; offset += 1) {
      const index = (round + offset) % options.contenders.length;
      const contender = options.contenders[index]!;
      const repeat = runsPerSample[index]!;
      await options.beforeSample?.();
      const start = now();
      for (let run = 0; run < repeat; run += 1) await contender.run();
      const us = Number(now() - start) / 1e3;
      samples[index]!.push(us / (repeat * contender.units));
    }
  }
  return options.contenders.map((contender, index) => ({
    name: contender.name,
    perUnitUs: samples[index]!,
    runsPerSample: runsPerSample[index]!,
  }));
}

/** A full garbage collection when Node runs with `--expose-gc` (the runner passes it), else nothing. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
