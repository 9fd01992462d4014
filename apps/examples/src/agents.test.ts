import { readFileSync } from "node:fs";
import path from "node:path";
import { listExampleAgentFiles } from "../index.js";
import { AgentSpec, agentSpecJsonSchema, validateAgentSpec } from "@waddle/protocol";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";

const examples = listExampleAgentFiles().map(({ file }) => ({
  file: path.basename(file),
  spec: JSON.parse(readFileSync(file, "utf8")) as unknown,
}));
const validateJsonSchema = new Ajv2020({ strict: false, logger: false }).compile(agentSpecJsonSchema);

describe("example agents", () => {
  it("has at least five, with distinct ids matching their file names", () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const { file, spec } of examples) expect(`${(spec as { id: string }).id}.json`).toBe(file);
  });

  it.each(examples)("$file validates without issues", ({ spec }) => {
    const result = validateAgentSpec(spec);
    expect(result.issues).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it.each(examples)("$file is accepted by the JSON Schema", ({ spec }) => {
    expect(validateJsonSchema(spec), JSON.stringify(validateJsonSchema.errors)).toBe(true);
  });

  it.each(examples)("$file round-trips parse → JSON → parse", ({ spec }) => {
    const parsed = AgentSpec.parse(spec);
    expect(AgentSpec.parse(JSON.parse(JSON.stringify(parsed)))).toEqual(parsed);
  });

  // The examples are what a newcomer reads first: no seed numbers, no code names of tools or options.
  it.each(examples)("$file describes itself in plain words", ({ spec }) => {
    const description = (spec as { description?: string }).description ?? "";
    expect(description.length).toBeGreaterThan(40);
    expect(description).not.toMatch(/\bseed\b/i);
    expect(description).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
    expect(description).not.toMatch(/\b(auto-seq|retain_turn|sequential-only|approval-gated)\b/i);
  });

  it("covers the patterns the examples are for", () => {
    const specs = examples.map(({ spec }) => AgentSpec.parse(spec));
    expect(specs.some((spec) => spec.groups.some((group) => group.join))).toBe(true);
    expect(specs.some((spec) => spec.tools.some((tool) => tool.requiresApproval))).toBe(true);
    expect(specs.some((spec) => spec.edges.filter((edge) => edge.kind === "auto_seq").length >= 4)).toBe(
      true,
    );
    expect(specs.some((spec) => spec.tools.some((tool) => tool.timeoutMs !== undefined))).toBe(true);
  });
});
