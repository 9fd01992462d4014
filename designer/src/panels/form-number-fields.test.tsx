import { AgentSpec, type AgentSpecInput } from "@waddle/protocol";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type * as Fields from "../components/fields.js";
import { EditorContext, type Editor } from "../editor/editor-context.js";
import { GroupInspector } from "../inspector/group-inspector.js";
import { ToolInspector } from "../inspector/tool-inspector.js";
import { getNumberProblem } from "../schema/get-number-problem.js";
import { createTestEditor } from "../testing/create-test-editor.js";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { HintsPanel } from "./hints-panel.js";
import { SettingsPanel } from "./settings-panel.js";

type NumberFieldProps = Parameters<typeof Fields.NumberField>[0];

// Every NumberField a form renders, with the props it was given (bounds, onChange, optional).
const rendered = vi.hoisted(() => [] as NumberFieldProps[]);
vi.mock("../components/fields.js", async (importOriginal) => ({
  ...(await importOriginal<typeof Fields>()),
  NumberField: (props: NumberFieldProps) => {
    rendered.push(props);
    return null;
  },
}));

beforeEach(() => {
  rendered.length = 0;
});

type Path = readonly (string | number)[];

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], value);
}

/** A copy of `value` with the leaf at `path` set, or removed when `leaf` is undefined. */
function setAt(value: unknown, path: Path, leaf: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return leaf;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  if (rest.length === 0 && leaf === undefined) delete copy[key];
  else copy[key] = setAt(copy[key], rest, leaf);
  return copy;
}

/** The paths of the leaves that differ between two JSON values. */
function getChangedPaths(before: unknown, after: unknown, path: Path = []): Path[] {
  if (Object.is(before, after)) return [];
  if (typeof before !== "object" || typeof after !== "object" || before === null || after === null)
    return [path];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].flatMap((key) => {
    const step = Array.isArray(before) ? Number(key) : key;
    return getChangedPaths(getAt(before, [step]), getAt(after, [step]), [...path, step]);
  });
}

interface ClearedField {
  label: string;
  path: string;
  optional: boolean;
  /** What the form stored when its box was cleared. */
  stored: unknown;
  /** What parsing the spec without that value fills in; undefined for a required value with no default. */
  schemaDefault: unknown;
  /** The schema accepts the spec as the cleared box left it. */
  storedValid: boolean;
  /** Numbers the form's limits and the schema judge differently. */
  disagreements: number[];
}

/**
 * Renders a form over a spec that sets every number it shows, then clears each box in turn (its
 * `onChange(undefined)`, undone afterwards) to learn the spec path it writes.
 */
function clearEveryNumber(spec: AgentSpec, form: ReactElement): ClearedField[] {
  const editor: Editor = createTestEditor({ spec });
  renderToString(<EditorContext.Provider value={editor}>{form}</EditorContext.Provider>);
  return rendered.map((field) => {
    const before = editor.document.getState().spec;
    field.onChange(undefined);
    const after = editor.document.getState().spec;
    editor.document.getState().undo();
    const paths = getChangedPaths(before, after);
    expect(paths, `${field.label} changes one value`).toHaveLength(1);
    const path = paths[0]!;
    const probes = [field.min, field.max, field.exclusiveMin, field.exclusiveMax, 0, 1]
      .filter((value) => value !== undefined)
      .flatMap((value) => [value - 1, value - 0.5, value, value + 0.5, value + 1]);
    return {
      label: field.label,
      path: path.join("."),
      optional: field.optional ?? true,
      stored: getAt(after, path),
      schemaDefault: getSchemaDefault(before, path),
      storedValid: AgentSpec.safeParse(after).success,
      disagreements: probes.filter(
        (value) =>
          (getNumberProblem(value, field) === null) !==
          AgentSpec.safeParse(setAt(before, path, value)).success,
      ),
    };
  });
}

/** The schema's default at `path`, or undefined where the value is required and has none (a guard's `chars`). */
function getSchemaDefault(spec: unknown, path: Path): unknown {
  const parsed = AgentSpec.safeParse(setAt(spec, path, undefined));
  return parsed.success ? getAt(parsed.data, path) : undefined;
}

function expectSchemaDefaultsAndBounds(fields: readonly ClearedField[]): void {
  for (const field of fields) {
    // a required value: its default, or (with none in the schema) a value the schema accepts
    if (!field.optional && field.schemaDefault !== undefined)
      expect(field.stored, `${field.label} (${field.path})`).toEqual(field.schemaDefault);
    if (!field.optional) expect(field.storedValid, `${field.label} (${field.path}) stored`).toBe(true);
    expect(field.disagreements, `${field.label} (${field.path}) bounds`).toEqual([]);
  }
}

describe("the settings panel's numbers", () => {
  const spec = makeSpec({
    llm: { provider: "offline", model: "offline", temperature: 0.7, maxTokens: 900, timeoutMs: 20_000 },
    planner: {
      maxIters: 9,
      repairAttempts: 5,
      maxConsecutiveArgFailures: 4,
      maxParallelCap: 17,
      toolTimeoutMs: 31_000,
      tasks: { enabled: true, maxConcurrent: 5, maxPerRun: 17, timeoutS: 301 },
      stuck: { enabled: true, repeats: 5, action: "pause" },
    },
    guards: [{ name: "short", on: "output", check: { kind: "max_length", chars: 5_000 }, action: "block" }],
  });

  it("fall back to the schema's defaults when cleared, and keep the schema's bounds", () => {
    const fields = clearEveryNumber(spec, <SettingsPanel />);
    expect(fields.map((field) => field.path)).toEqual([
      "llm.temperature",
      "llm.maxTokens",
      "llm.timeoutMs",
      "planner.maxIters",
      "planner.repairAttempts",
      "planner.maxConsecutiveArgFailures",
      "planner.maxParallelCap",
      "planner.toolTimeoutMs",
      "planner.stuck.repeats",
      "guards.0.check.chars",
      "planner.tasks.maxConcurrent",
      "planner.tasks.maxPerRun",
      "planner.tasks.timeoutS",
    ]);
    expect(fields.find((field) => field.path === "planner.repairAttempts")?.stored).toBe(2);
    expectSchemaDefaultsAndBounds(fields);
  });
});

describe("the hints panel's budgets", () => {
  it("keep the schema's bounds", () => {
    const spec = makeSpec({
      hints: { budget_hints: { max_parallel: 3, max_cost_usd: 0.5 } },
      planner: { deadlineS: 30, hopBudget: 12, tokenBudget: 8_000 },
    });
    const fields = clearEveryNumber(spec, <HintsPanel />);
    expect(fields.map((field) => field.path)).toEqual([
      "hints.budget_hints.max_parallel",
      "hints.budget_hints.max_cost_usd",
      "planner.deadlineS",
      "planner.hopBudget",
      "planner.tokenBudget",
    ]);
    expectSchemaDefaultsAndBounds(fields);
  });
});

describe("the inspectors' numbers", () => {
  const inspect = (input: AgentSpecInput["tools"]) => {
    const spec = makeSpec({ tools: input });
    return spec.tools.flatMap((tool) => {
      rendered.length = 0;
      return clearEveryNumber(spec, <ToolInspector tool={tool} />);
    });
  };

  it("fall back to the schema's defaults when cleared, and keep the schema's bounds", () => {
    const numbers = { timeoutMs: 9_000, costUsd: 0.01, latencyHintMs: 120 };
    const fields = inspect([
      makeTool("fetch_page", {
        ...numbers,
        retry: { maxAttempts: 5, backoffMs: 300, maxBackoffMs: 6_000 },
        impl: {
          kind: "http",
          method: "GET",
          url: "https://example.com",
          headers: {},
          query: {},
          body: "args",
          timeoutMs: 4_000,
          maxResponseBytes: 2_000_000,
        },
      }),
      makeTool("flaky", {
        ...numbers,
        impl: { kind: "mock", output: {}, latencyMs: 10, failRate: 0.5, failFirst: 2 },
      }),
      makeTool("helper", {
        ...numbers,
        impl: {
          kind: "llm",
          prompt: "Answer {{args.text}}",
          llm: { provider: "offline", model: "offline", temperature: 1, maxTokens: 500, timeoutMs: 5_000 },
        },
      }),
      makeTool("delegate", { ...numbers, impl: { kind: "agent", agentId: "another-agent", maxIters: 4 } }),
    ]);
    expect(fields.map((field) => field.path)).toEqual([
      "tools.0.impl.timeoutMs",
      "tools.0.impl.maxResponseBytes",
      "tools.0.retry.maxAttempts",
      "tools.0.retry.backoffMs",
      "tools.0.retry.maxBackoffMs",
      "tools.0.timeoutMs",
      "tools.0.costUsd",
      "tools.0.latencyHintMs",
      "tools.1.impl.latencyMs",
      "tools.1.impl.failRate",
      "tools.1.impl.failFirst",
      "tools.1.timeoutMs",
      "tools.1.costUsd",
      "tools.1.latencyHintMs",
      "tools.2.impl.llm.temperature",
      "tools.2.impl.llm.maxTokens",
      "tools.2.impl.llm.timeoutMs",
      "tools.2.timeoutMs",
      "tools.2.costUsd",
      "tools.2.latencyHintMs",
      "tools.3.impl.maxIters",
      "tools.3.timeoutMs",
      "tools.3.costUsd",
      "tools.3.latencyHintMs",
    ]);
    expectSchemaDefaultsAndBounds(fields);
  });

  it("a group's max parallel keeps the schema's bounds", () => {
    const spec = makeSpec({
      groups: [{ id: "fan", kind: "parallel", name: "Fan out", members: ["alpha", "beta"], maxParallel: 2 }],
    });
    const fields = clearEveryNumber(spec, <GroupInspector group={spec.groups[0]!} />);
    expect(fields.map((field) => field.path)).toEqual(["groups.0.maxParallel"]);
    expectSchemaDefaultsAndBounds(fields);
  });
});
