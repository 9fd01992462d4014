import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { agentSpecJsonSchema } from "./json-schema.js";
import { makeTestSpec } from "./test-specs.js";

const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
const validate = ajv.compile(agentSpecJsonSchema);
const base = makeTestSpec();

describe("agentSpecJsonSchema", () => {
  it("accepts a valid spec", () => {
    expect(validate(base), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ["a wrong version", { ...base, version: 2 }],
    ["an id that is not a slug", { ...base, id: "Not A Slug" }],
    ["an unknown field", { ...base, apiKey: "sk" }],
    ["a tool name with spaces", { ...base, tools: [{ name: "send email", impl: { kind: "mock" } }] }],
    ["an unknown impl kind", { ...base, tools: [{ name: "a", impl: { kind: "python" } }] }],
    [
      "a wrong side effect",
      { ...base, tools: [{ name: "a", sideEffects: "dangerous", impl: { kind: "mock" } }] },
    ],
    ["a wrong edge kind", { ...base, edges: [{ id: "e", kind: "maybe", source: "alpha", target: "beta" }] }],
  ])("rejects %s", (_name, spec) => {
    expect(validate(spec)).toBe(false);
  });

  it("is the file editors use, up to date", () => {
    const file = JSON.parse(readFileSync(new URL("../agent-spec.schema.json", import.meta.url), "utf8"));
    expect(file, "run: npm run write-schema -w @waddle/protocol").toEqual(agentSpecJsonSchema);
  });
});
