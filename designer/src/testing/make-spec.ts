import { AgentSpec, type AgentSpecInput, type ToolSpec, ToolSpec as ToolSpecSchema } from "@waddle/protocol";

/** A mock tool for tests, with string `text` in and out unless overridden. */
export function makeTool(name: string, overrides: Partial<ToolSpec> = {}): ToolSpec {
  return ToolSpecSchema.parse({
    name,
    desc: `tool ${name}`,
    argsSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    outSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    impl: { kind: "mock", output: { text: "{{args.text}}" } },
    ...overrides,
  });
}

/** A parsed spec with tools alpha, beta, gamma (laid out left to right) unless overridden. */
export function makeSpec(overrides: Partial<AgentSpecInput> = {}): AgentSpec {
  return AgentSpec.parse({
    version: 1,
    id: "test-agent",
    name: "Test agent",
    tools: [makeTool("alpha"), makeTool("beta"), makeTool("gamma")],
    layout: { nodes: { alpha: { x: 0, y: 0 }, beta: { x: 300, y: 0 }, gamma: { x: 600, y: 0 } } },
    ...overrides,
  });
}
