import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listExampleAgentFiles } from "@waddle/examples";
import { AgentSpec } from "@waddle/protocol";
import { unzipSync, strFromU8 } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { importAgent } from "../import-agent.js";
import { exportAgent } from "../export-agent.js";
import { fromPydanticSchema, toComparableSchema } from "./compare-model-schema.js";
import { exportPenguiflow } from "./export-penguiflow.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const dumpScript = path.resolve(here, "../../testing/dump-penguiflow-catalog.py");
const dir = mkdtempSync(path.join(tmpdir(), "waddle-penguiflow-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const python = spawnSync("python3", ["--version"]).status === 0 ? "python3" : undefined;
const hasPydantic = python !== undefined && spawnSync(python, ["-c", "import pydantic"]).status === 0;
if (!python) console.warn("python3 not found: the PenguiFlow exports are not compiled (py_compile skipped).");
else if (!hasPydantic) console.warn("pydantic not installed: catalog.py is checked structurally only.");

const examples = listExampleAgentFiles().map(({ file }) =>
  AgentSpec.parse(JSON.parse(readFileSync(file, "utf8"))),
);

function writeExport(spec: AgentSpec): string {
  const folder = path.join(dir, spec.id);
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(exportPenguiflow(spec).files))
    writeFileSync(path.join(folder, name), text);
  return folder;
}

function pyCompile(folder: string): void {
  const result = spawnSync(python!, ["-m", "py_compile", "catalog.py", "planner.py"], {
    cwd: folder,
    encoding: "utf8",
  });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
}

/** NAME tokens of the Python code itself (Python's own tokenizer: strings and comments are not names). */
function pythonNames(file: string): string[] {
  const script =
    "import sys, tokenize\n" +
    "with open(sys.argv[1], 'rb') as f:\n" +
    "    print('\\n'.join(t.string for t in tokenize.tokenize(f.readline) if t.type == tokenize.NAME))\n";
  const result = spawnSync(python!, ["-c", script, file], { encoding: "utf8" });
  expect(result.status).toBe(0);
  return result.stdout.split("\n");
}

interface DumpedNode {
  name: string;
  desc: string;
  side_effects: string;
  tags: string[];
  auth_scopes: string[];
  cost_hint: string | null;
  latency_hint_ms: number | null;
  safety_notes: string | null;
  extra: Record<string, unknown>;
  node: string;
  registered: boolean;
  args_schema: Record<string, unknown>;
  out_schema: Record<string, unknown>;
}

function dumpCatalog(folder: string): DumpedNode[] {
  const result = spawnSync(python!, [dumpScript, folder], { encoding: "utf8" });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as DumpedNode[];
}

/** The model's schema with the parts the spec marks lossy masked, so that only carried parts are compared. */
function maskLossy(spec: unknown, model: unknown): unknown {
  if (spec === "lossy") return "lossy";
  if (Array.isArray(spec) && Array.isArray(model))
    return model.map((entry, index) => maskLossy(spec[index], entry));
  if (spec && model && typeof spec === "object" && typeof model === "object") {
    return Object.fromEntries(
      Object.entries(model).map(([key, value]) => [
        key,
        maskLossy((spec as Record<string, unknown>)[key], value),
      ]),
    );
  }
  return model;
}

/** Text that would run as Python if the export put it raw into code, a docstring or a comment. */
const HOSTILE = `"""\\' \n__import__('os').system('INJECTED')\n# """ ''' \\"`;
const hostileSpec = AgentSpec.parse({
  version: 1,
  id: "hostile",
  name: `Evil ${HOSTILE}`,
  description: HOSTILE,
  planner: { systemPromptExtra: HOSTILE },
  tools: [
    {
      name: "class",
      desc: HOSTILE,
      tags: [HOSTILE],
      safetyNotes: HOSTILE,
      costHint: `"""`,
      argsSchema: {
        type: "object",
        description: HOSTILE,
        properties: {
          [HOSTILE]: { type: "string", description: HOSTILE, default: HOSTILE },
          "my-field": { type: "string", enum: [HOSTILE, "b"] },
          __proto__x: { type: "integer" },
          model_name: { type: "string" },
          str: { type: "string" },
          labels: { type: "object", patternProperties: { "^x-": { type: "string" } } },
        },
        required: ["my-field"],
      },
      impl: { kind: "mock", output: { text: HOSTILE } },
    },
    { name: "__import__", desc: HOSTILE, impl: { kind: "llm", prompt: HOSTILE } },
    {
      name: "fetch",
      impl: { kind: "http", url: `https://api.example.com/${HOSTILE}`, headers: { "x-k": HOSTILE } },
    },
    { name: "remote", impl: { kind: "mcp", server: "srv", tool: "do.it" } },
  ],
  sampleQueries: [HOSTILE],
  hints: { ordering_hints: ["class", "__import__"] },
});

describe("PenguiFlow export", () => {
  it.skipIf(!python)("compiles for every example agent", () => {
    for (const spec of examples) pyCompile(writeExport(spec));
  });

  it.skipIf(!hasPydantic)("writes models whose JSON Schemas are the spec's, and a NodeSpec per tool", () => {
    for (const spec of examples) {
      const nodes = dumpCatalog(writeExport(spec));
      expect(nodes.map((node) => node.name)).toEqual(spec.tools.map((tool) => tool.name));
      spec.tools.forEach((tool, index) => {
        const node = nodes[index]!;
        expect(node).toMatchObject({
          node: tool.name,
          registered: true,
          desc: tool.desc,
          side_effects: tool.sideEffects,
          tags: tool.tags,
          auth_scopes: tool.authScopes,
          cost_hint: tool.costHint ?? null,
          latency_hint_ms: tool.latencyHintMs ?? null,
          safety_notes: tool.safetyNotes ?? null,
        });
        expect(node.extra).toMatchObject({
          auto_seq: tool.autoSeq,
          auto_seq_execute: tool.autoSeqExecute,
          ...tool.extra,
        });
        for (const [key, schema] of [
          ["args_schema", tool.argsSchema],
          ["out_schema", tool.outSchema],
        ] as const) {
          const expected = toComparableSchema(schema);
          expect(
            maskLossy(expected, fromPydanticSchema(node[key])),
            `${spec.id}.${tool.name} ${key}`,
          ).toEqual(expected);
        }
      });
      const edgeTargets = spec.edges.filter((edge) => edge.kind === "auto_seq").map((edge) => edge.target);
      for (const target of edgeTargets) {
        expect(nodes.find((node) => node.name === target)?.extra.auto_seq_from).toBeDefined();
      }
    }
  });

  it("writes planner.py with the hints, limits and switches under PenguiFlow's names", () => {
    const spec = examples.find((example) => example.groups.length > 0)!;
    const planner = exportPenguiflow(spec).files["planner.py"]!;
    for (const name of [
      "planning_hints",
      "system_prompt_extra",
      "max_iters",
      "hop_budget",
      "deadline_s",
      "token_budget",
      "repair_attempts",
      "arg_fill_enabled",
      "max_consecutive_arg_failures",
      "auto_seq_enabled",
      "auto_seq_execute",
      "background_tasks",
      "stream_final_response",
    ]) {
      expect(planner).toContain(`"${name}": `);
    }
    for (const key of [
      "ordering_hints",
      "parallel_groups",
      "sequential_only",
      "disallow_nodes",
      "prefer_nodes",
      "budget_hints",
    ]) {
      expect(planner).toContain(`"${key}": `);
    }
    // The group's members join parallel_groups; its join and cap stay in WADDLE_ONLY and the README.
    expect(planner).toContain(JSON.stringify(spec.groups[0]!.members).replaceAll(",", ", "));
    expect(exportPenguiflow(spec).files["README.md"]).toContain("- groups: planner.py WADDLE_ONLY");
  });

  it("keeps hostile names, descriptions and templates out of the code, and maps names Python cannot use", () => {
    const { files, report } = exportPenguiflow(hostileSpec);
    const folder = writeExport(hostileSpec);
    for (const [name, text] of Object.entries(files)) {
      // Spec text sits only inside string literals: no line starts with it.
      if (name.endsWith(".py")) expect(text, name).not.toMatch(/^(?:__import__|# """)/m);
    }
    expect(report.toolFunctions).toEqual([
      { tool: "class", function: "class_2" },
      { tool: "__import__", function: "tool__import__" },
    ]);
    expect(report.renamedFields.map((entry) => entry.property)).toEqual(
      expect.arrayContaining(["my-field", "model_name", "str", HOSTILE]),
    );
    expect(report.lossy).toEqual([expect.objectContaining({ feature: "patternProperties" })]);
    const readme = files["README.md"]!;
    expect(readme).toContain("patternProperties");
    expect(readme).toContain("`class_2`");
    expect(files["catalog.py"]).toMatch(/labels: Optional\[dict\[str, Any\]\] = Field\(None\)/);
    expect(files["catalog.py"]).toContain(
      'raise NotImplementedError("mcp tool: call tool \\"do.it\\" of MCP server \\"srv\\"',
    );
    if (!python) return;
    pyCompile(folder);
    for (const file of ["catalog.py", "planner.py"]) {
      const names = pythonNames(path.join(folder, file));
      expect(names, file).not.toContain("system");
      expect(names, file).not.toContain("INJECTED");
      expect(names, file).not.toContain("__import__");
    }
    if (!hasPydantic) return;
    const [node] = dumpCatalog(folder);
    expect(node!.desc).toBe(HOSTILE);
    expect(node!.tags).toEqual([HOSTILE]);
    const properties = node!.args_schema.properties as Record<string, { default?: string }>;
    expect(Object.keys(properties)).toEqual([
      HOSTILE,
      "my-field",
      "__proto__x",
      "model_name",
      "str",
      "labels",
    ]);
    expect(properties[HOSTILE]!.default).toBe(HOSTILE);
  });

  it("round-trips: the zip's waddle-agent.json imports as the same agent", async () => {
    for (const spec of [...examples, hostileSpec]) {
      const exported = await exportAgent({ spec, format: "penguiflow", getAgent: async () => undefined });
      const files = unzipSync(exported.body as Uint8Array);
      expect(Object.keys(files).sort()).toEqual(
        ["README.md", "catalog.py", "planner.py", "requirements.txt", "waddle-agent.json"].map(
          (name) => `${spec.id}/${name}`,
        ),
      );
      const imported = importAgent(JSON.parse(strFromU8(files[`${spec.id}/waddle-agent.json`]!)));
      expect(imported.issues.filter((issue) => issue.severity === "error")).toEqual([]);
      expect(imported.spec).toEqual(spec);
    }
  });
});
