import type { RunBenchmark } from "./bench-report.js";

/** One benchmark: its name on the command line, its title, and a lazy import of its code. */
export interface BenchEntry {
  name: string;
  title: string;
  load(): Promise<RunBenchmark>;
}

/** Every benchmark, in the order `npm run bench` runs them and docs/benchmarks.md lists them. */
export const BENCHMARKS: readonly BenchEntry[] = [
  {
    name: "overhead",
    title: "1. Planner overhead per step (Waddle, LangGraph.js, bare loop)",
    load: async () => (await import("./overhead/overhead-bench.js")).runOverheadBench,
  },
  {
    name: "auto-seq",
    title: "2. Auto-seq on the document pipeline",
    load: async () => (await import("./auto-seq/auto-seq-bench.js")).runAutoSeqBench,
  },
  {
    name: "parallel",
    title: "3. Parallel branches under max_parallel",
    load: async () => (await import("./parallel/parallel-bench.js")).runParallelBench,
  },
  {
    name: "live-events",
    title: "4. Live events: store → room → socket.io clients",
    load: async () => (await import("./live-events/live-events-bench.js")).runLiveEventsBench,
  },
  {
    name: "scale",
    title: "5. Scale: 100 concurrent runs on one server process",
    load: async () => (await import("./scale/scale-bench.js")).runScaleBench,
  },
  {
    name: "designer",
    title: "6. Designer in Chromium: a 300-tool agent, a live burst of events, a 10,000-event replay",
    load: async () => (await import("./designer/designer-bench.js")).runDesignerBench,
  },
  {
    name: "scale-out",
    title: "7. Scale-out: SQLite against PostgreSQL + Redis with one and three processes",
    load: async () => (await import("./scale-out/scale-out-bench.js")).runScaleOutBench,
  },
  {
    name: "weak-models",
    title:
      "8. Weak models: the malformed-reply corpus (answers kept, extra LLM calls, no_path, placeholders)",
    load: async () => (await import("./weak-models/weak-models-bench.js")).runWeakModelsBench,
  },
  {
    name: "sessions",
    title: "9. Sessions: 200 turns of one chat (turn start, prompt tokens, reading the session, idle memory)",
    load: async () => (await import("./sessions/sessions-bench.js")).runSessionsBench,
  },
  {
    name: "tests",
    title: "10. Tests from runs: a 100-case suite with recorded LLM and mocks",
    load: async () => (await import("./tests/tests-bench.js")).runTestsBench,
  },
  {
    name: "fork",
    title: "11. Fork: the replayed prefix of a fork of a 50-step run",
    load: async () => (await import("./fork/fork-bench.js")).runForkBench,
  },
  {
    name: "otel",
    title: "12. OpenTelemetry: a step with tracing on against off",
    load: async () => (await import("./otel/otel-bench.js")).runOtelBench,
  },
  {
    name: "access",
    title: "13. Access checks per request: no keys, WADDLE_TOKEN and an API key side by side",
    load: async () => (await import("./access/access-bench.js")).runAccessBench,
  },
  {
    name: "releases",
    title:
      "14. Releases: resolving a channel per request (no releases against production + staging), and a 20-case shadow run",
    load: async () => (await import("./releases/releases-bench.js")).runReleasesBench,
  },
  {
    name: "triggers",
    title:
      "15. Triggers: a schedule's fire-time drift on one process and three in queue mode, and webhook deliveries to 202",
    load: async () => (await import("./triggers/triggers-bench.js")).runTriggersBench,
  },
  {
    name: "public",
    title:
      "16. Public chat: 200 visitors streaming at once on one server, and the hosted page's weight and time to ready in Chromium",
    load: async () => (await import("./public/public-bench.js")).runPublicBench,
  },
  {
    name: "guards",
    title:
      "17. Guards: prompt-injection detection and false positives, and the time of the scanning checks from 1 KB to 1 MB",
    load: async () => (await import("./guards/guards-bench.js")).runGuardsBench,
  },
];

export const BENCHMARK_NAMES: readonly string[] = BENCHMARKS.map((entry) => entry.name);
