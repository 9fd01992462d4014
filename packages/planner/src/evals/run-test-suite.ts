import { getTestTotals, type TestCase, type TestCaseResult, type TestTotals } from "@waddle/protocol";
import { createConcurrencyLimiter } from "../util/concurrency-limiter.js";

/** Runs every case with at most `concurrency` at once; results keep the cases' order. */
export async function runTestSuite(options: {
  cases: readonly TestCase[];
  concurrency?: number;
  runCase: (testCase: TestCase) => Promise<TestCaseResult>;
  onResult?: (result: TestCaseResult) => void;
}): Promise<{ results: TestCaseResult[]; totals: TestTotals }> {
  const limiter = createConcurrencyLimiter(Math.max(1, options.concurrency ?? 4));
  const results = await Promise.all(
    options.cases.map((testCase) =>
      limiter.run(async () => {
        const result = await options.runCase(testCase);
        options.onResult?.(result);
        return result;
      }),
    ),
  );
  return { results, totals: getTestTotals(results) };
}
