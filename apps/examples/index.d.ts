/** One example agent's spec file, and where its test suite is (the file may not exist). */
export interface ExampleAgentFile {
  /** The file name without `.json`: the agent's id in the examples. */
  id: string;
  /** Absolute path of `<id>.json`. */
  file: string;
  /** Absolute path of `<id>.tests.json`. */
  testsFile: string;
}

/** apps/examples/agents: one `<id>.json` spec per example agent, with its suite in `<id>.tests.json`. */
export declare const EXAMPLE_AGENTS_DIR: string;

/**
 * The agent specs of a folder of example agents, sorted by file name: every `*.json` except the test
 * suites (`*.tests.json`). `dir` is apps/examples/agents by default.
 */
export declare function listExampleAgentFiles(dir?: string): ExampleAgentFile[];
