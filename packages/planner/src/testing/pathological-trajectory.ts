import type { TrajectoryStepInput } from "../trajectory/rule-based-compressor.js";

/**
 * A pathological trajectory for budget tests: `count` steps over seven tools, every thirteenth failing
 * with a long message, the others observing ~50 kB of text and 300 deeply nested rows each.
 */
export function createPathologicalTrajectory(count = 200): TrajectoryStepInput[] {
  return Array.from({ length: count }, (_, index) => {
    const node = `tool_${index % 7}`;
    if (index % 13 === 5) {
      return {
        next_node: node,
        args: { i: index },
        failure: { error_code: "tool_failed", message: "x".repeat(5_000) },
      };
    }
    return {
      next_node: node,
      args: { page: index },
      observation: {
        text: `row ${index} `.repeat(4_000),
        rows: Array.from({ length: 300 }, (_, row) => ({
          row,
          nested: { deep: { deeper: [row, "y".repeat(200)] } },
        })),
        [`key_${index}`]: index,
      },
    };
  });
}
