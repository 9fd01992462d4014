import type { BenchContext, BenchResult } from "../bench-report.js";
import { runPagePart } from "./page-part.js";
import { runVisitorsPart } from "./visitors-part.js";

/**
 * `npm run bench -- public` (issue 33): many visitors streaming at once on one server (visitors-part.ts),
 * then the hosted chat page's weight and time to ready in Chromium (page-part.ts). The parts run one
 * after the other and are reported together.
 */
const PARTS: readonly ((context: BenchContext) => Promise<BenchResult>)[] = [runVisitorsPart, runPagePart];

export async function runPublicBench(context: BenchContext): Promise<BenchResult> {
  const result: BenchResult = { tables: [], lines: [], targets: [], notes: [] };
  for (const part of PARTS) {
    const next = await part(context);
    result.tables.push(...next.tables);
    result.lines.push(...next.lines);
    result.targets.push(...next.targets);
    result.notes.push(...next.notes);
  }
  return result;
}
