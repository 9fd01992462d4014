// @waddle/examples: where the example agents are, for the server (which loads them into an empty store), the
// CLI and the tests. Plain ESM with index.d.ts beside it, so that a built server running under plain `node`
// imports it without a build step of its own.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** apps/examples/agents: one `<id>.json` spec per example agent, with its suite in `<id>.tests.json`. */
export const EXAMPLE_AGENTS_DIR = fileURLToPath(new URL("./agents", import.meta.url));

/**
 * The agent specs of a folder of example agents, sorted by file name: every `*.json` except the test
 * suites (`*.tests.json`).
 * @param {string} [dir] the folder; apps/examples/agents by default
 * @returns {import("./index.js").ExampleAgentFile[]}
 */
export function listExampleAgentFiles(dir = EXAMPLE_AGENTS_DIR) {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json") && !name.endsWith(".tests.json"))
    .sort()
    .map((name) => {
      const id = name.slice(0, -".json".length);
      return { id, file: path.join(dir, name), testsFile: path.join(dir, `${id}.tests.json`) };
    });
}
