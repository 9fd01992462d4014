import type { AgentSpecInput, ToolSpecInput } from "./agent-spec.js";

/** A small valid spec for tests: three mock tools a → b → c. Not exported from the package. */
export function makeTestSpec(overrides: Partial<AgentSpecInput> = {}): AgentSpecInput {
  const tool = (name: string, extra: Partial<ToolSpecInput> = {}): ToolSpecInput => ({
    name,
    desc: `tool ${name}`,
    argsSchema: { type: "object", properties: { text: { type: "string" } } },
    outSchema: { type: "object", properties: { text: { type: "string" } } },
    impl: { kind: "mock", output: { text: "{{args.text}}" } },
    ...extra,
  });
  return {
    version: 1,
    id: "test-agent",
    name: "Test agent",
    tools: [tool("alpha"), tool("beta"), tool("gamma"), tool("join_all")],
    ...overrides,
  };
}
