import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listExampleAgentFiles } from "@waddle/examples";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { exportPenguiflow } from "./export-penguiflow.js";
import { checkPlannerOptions, getPlannerOptions } from "./testing/check-planner-options.js";
import { REACT_PLANNER_KEYWORDS, UPSTREAM_CLASSES } from "./testing/upstream-react-planner.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const checkScript = path.join(here, "testing/check-planner-keywords.py");
const dir = mkdtempSync(path.join(tmpdir(), "waddle-penguiflow-planner-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const recordFile = path.join(dir, "upstream.json");
writeFileSync(recordFile, JSON.stringify({ keywords: REACT_PLANNER_KEYWORDS, classes: UPSTREAM_CLASSES }));

const python = spawnSync("python3", ["--version"]).status === 0 ? "python3" : undefined;
const hasPydantic = python !== undefined && spawnSync(python, ["-c", "import pydantic"]).status === 0;
if (!hasPydantic) console.warn("python3 with pydantic not found: planner.py is checked structurally only.");

const examples = listExampleAgentFiles().map(({ file }) =>
  AgentSpec.parse(JSON.parse(readFileSync(file, "utf8"))),
);
/** Every planner setting that reaches a ReactPlanner keyword, set away from its default. */
const everySetting = AgentSpec.parse({
  version: 1,
  id: "every-setting",
  name: "Every setting",
  llm: {
    provider: "openai",
    model: "gpt-4o-mini",
    baseUrl: "https://llm.example.com/v1",
    apiKeyEnv: "MY_KEY",
    temperature: 0.4,
    reasoningEffort: "high",
  },
  summarizerLlm: { provider: "openai", model: "gpt-4o-mini" },
  planner: {
    maxIters: 5,
    tokenBudget: 4000,
    deadlineS: 12.5,
    hopBudget: 9,
    systemPromptExtra: "Be brief.",
    pauseEnabled: false,
    autoSeq: { enabled: true, execute: true, readOnlyOnly: false },
    tasks: { enabled: true, maxConcurrent: 3, maxPerRun: 7, timeoutS: 0.5, defaultMergeStrategy: "REPLACE" },
  },
  tools: [{ name: "echo", impl: { kind: "mock", output: { ok: true } } }],
});
const routed = AgentSpec.parse({
  ...everySetting,
  id: "routed",
  llm: { ...everySetting.llm, reasoningEffort: "auto" },
  routerLlm: { provider: "openai", model: "gpt-4o-mini" },
});
const specs = [...examples, everySetting, routed];

interface CheckResult {
  errors: string[];
  passed: Record<string, string>;
  raised: string | null;
}

/** check-planner-keywords.py over the spec's export: build_planner() against the recorded upstream types. */
function runCheck(spec: AgentSpec, mode: "scripted" | "bare" = "scripted"): CheckResult {
  const folder = path.join(dir, spec.id);
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(exportPenguiflow(spec).files))
    writeFileSync(path.join(folder, name), text);
  const args = [checkScript, recordFile, folder, ...(mode === "bare" ? ["bare"] : [])];
  const result = spawnSync(python!, args, { encoding: "utf8" });
  expect(result.stderr, spec.id).toBe("");
  return JSON.parse(result.stdout) as CheckResult;
}

function getOption(spec: AgentSpec, keyword: string): string | undefined {
  const options = getPlannerOptions(exportPenguiflow(spec).files["planner.py"]!);
  return options.find((option) => option.keyword === keyword)?.value;
}

describe("PenguiFlow planner.py", () => {
  it("passes only ReactPlanner's keywords, each a value of upstream's type", () => {
    for (const spec of specs) {
      expect(checkPlannerOptions(exportPenguiflow(spec).files["planner.py"]!), spec.id).toEqual([]);
    }
  });

  it("the check refuses a dict where upstream takes BackgroundTasksConfig, and fields it lacks", () => {
    const plannerWith = (...entries: string[]) =>
      [
        "from penguiflow.planner import BackgroundTasksConfig, ReactPlanner",
        "    options: dict[str, Any] = {",
        ...entries.map((entry) => `        ${entry},`),
        "    }",
      ].join("\n");
    expect(
      checkPlannerOptions(
        plannerWith(
          '"background_tasks": {"enabled": True}',
          '"tasks": BackgroundTasksConfig(enabled=True)',
          '"max_iters": "8"',
        ),
      ),
    ).toEqual([
      expect.stringMatching(
        /^background_tasks .*: a dict literal where ReactPlanner takes BackgroundTasksConfig/,
      ),
      expect.stringMatching(/^tasks .*: ReactPlanner has no such keyword$/),
      expect.stringMatching(/^max_iters .*: a str literal where ReactPlanner takes int$/),
    ]);
    expect(
      checkPlannerOptions(
        plannerWith('"background_tasks": BackgroundTasksConfig(max_tasks_per_run=4, task_timeout_s=0.5)'),
      ),
    ).toEqual([
      expect.stringMatching(/BackgroundTasksConfig has no field for `max_tasks_per_run=4`$/),
      expect.stringMatching(/BackgroundTasksConfig.task_timeout_s is a float literal, upstream takes int$/),
    ]);
  });

  it("builds background_tasks as a BackgroundTasksConfig with whole seconds and no per-run cap", () => {
    const { files, report } = exportPenguiflow(everySetting);
    expect(files["planner.py"]).toContain(
      "from penguiflow.planner import BackgroundTasksConfig, ReactPlanner",
    );
    const value = getOption(everySetting, "background_tasks")!;
    expect(value).toMatch(/^BackgroundTasksConfig\(/);
    expect(value).toContain("task_timeout_s=1,");
    expect(value).toContain('default_merge_strategy="REPLACE",');
    expect(value).not.toContain("max_tasks_per_run");
    expect(report.notCarried.map((entry) => entry.what)).toEqual(
      expect.arrayContaining(["tasks_max_per_run", "planner.tasks.timeoutS 0.5"]),
    );
  });

  it("passes pause_enabled, temperature and a concrete reasoning_effort; keeps 'auto' in WADDLE_ONLY", () => {
    expect(getOption(everySetting, "pause_enabled")).toBe("False");
    expect(getOption(everySetting, "temperature")).toBe("0.4");
    expect(getOption(everySetting, "reasoning_effort")).toBe('"high"');
    expect(getOption(routed, "reasoning_effort")).toBeUndefined();
    const { files } = exportPenguiflow(routed);
    expect(files["planner.py"]).toMatch(/WADDLE_ONLY: [\s\S]*"reasoning_effort": "auto"/);
    expect(files["README.md"]).toContain("- reasoning_effort: planner.py WADDLE_ONLY");
  });

  it("says in the README that a parallel group's join and cap were not carried", () => {
    const spec = examples.find((example) => example.groups.some((group) => group.join))!;
    const group = spec.groups.find((candidate) => candidate.join)!;
    const readme = exportPenguiflow(spec).files["README.md"]!;
    expect(readme).toContain(
      `- group ${group.id} join (${group.join!.tool}, inject ${JSON.stringify(group.join!.inject)}): not carried:`,
    );
    expect(readme).toMatch(
      /join .*: not carried: .*the model's parallel action; kept in planner\.py WADDLE_ONLY$/m,
    );
    expect(readme).toContain(`- group ${group.id} maxParallel ${group.maxParallel}: not carried:`);
    const withoutJoin = examples.find((example) => example.groups.some((candidate) => !candidate.join))!;
    expect(exportPenguiflow(withoutJoin).files["README.md"]).not.toMatch(/- group .* join/);
  });

  it.skipIf(!hasPydantic)("runs build_planner() against stand-ins of the recorded upstream types", () => {
    for (const spec of specs) {
      const checked = runCheck(spec);
      expect(checked.errors, spec.id).toEqual([]);
      expect(checked.passed.background_tasks, spec.id).toBe("BackgroundTasksConfig");
    }
  });

  it.skipIf(!hasPydantic)("build_planner() of an offline agent says how to pick a PenguiFlow LLM", () => {
    const offline = examples.find((example) => example.llm.provider === "offline")!;
    const checked = runCheck(offline, "bare");
    expect(checked.raised).toMatch(/offline model.*set LLM in planner\.py or call build_planner\(llm=/);
    expect(checked.passed).toEqual({});
    expect(exportPenguiflow(offline).files["README.md"]).toContain("set `LLM` in `planner.py`");
    expect(runCheck(everySetting, "bare")).toMatchObject({ errors: [], raised: null });
  });
});
