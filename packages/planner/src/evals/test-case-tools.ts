import type { AgentSpec, TestCase, ToolSpec } from "@waddle/protocol";
import { createMockToolRunner } from "../catalog/mock-tool-runner.js";
import type { ImplResolver, ToolDefinition, ToolRunner } from "../catalog/tool.js";
import type { Sleep } from "../util/abortable-sleep.js";
import { ToolMockMatcher } from "./tool-mock-matcher.js";

/** A prefix no registered module uses: the refs of the tools a test case serves. */
const TEST_REF_PREFIX = "waddle-test:";

/**
 * A tool call that a test case cannot serve: `unexpected_tool_call` (no mock matches and the case does not
 * allow live tools), or the recorded failure of a mock (its own code). Never retried.
 */
export class TestCaseToolError extends Error {
  readonly retryable = false;
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "TestCaseToolError";
  }
}

/** An unmatched call under mocks, as reported in the case's failures. */
export interface UnexpectedToolCall {
  tool: string;
  args: unknown;
}

/** What `ReactPlanner.fromSpec` is given instead of the agent's own tools, and what the run did with them. */
export interface TestCaseTools {
  spec: AgentSpec;
  moduleTools: ReadonlyMap<string, ToolDefinition>;
  resolveImpl: ImplResolver | undefined;
  /** The mocks and which were used; undefined when the case has none (tools run live). */
  matcher?: ToolMockMatcher;
  unexpectedCalls: UnexpectedToolCall[];
}

/**
 * Serves a test case's mocks through the interfaces the planner already takes (module tools and the impl
 * resolver), keeping each tool's schemas: every tool of the spec answers from the case's mocks in order; a
 * call no mock matches fails with `unexpected_tool_call {tool, args}`, or runs the real tool when the case
 * has `allowLiveTools`. A case without mocks runs every tool live (the agent's own tools, unchanged).
 */
export function createTestCaseTools(options: {
  spec: AgentSpec;
  testCase: Pick<TestCase, "mocks" | "allowLiveTools">;
  moduleTools?: ReadonlyMap<string, ToolDefinition>;
  resolveImpl?: ImplResolver;
  random?: () => number;
  sleep?: Sleep;
}): TestCaseTools {
  const modules = options.moduleTools ?? new Map<string, ToolDefinition>();
  const unexpectedCalls: UnexpectedToolCall[] = [];
  if (options.testCase.mocks.length === 0) {
    return { spec: options.spec, moduleTools: modules, resolveImpl: options.resolveImpl, unexpectedCalls };
  }
  const matcher = new ToolMockMatcher(options.testCase.mocks);
  const allowLive = options.testCase.allowLiveTools === true;
  const serve =
    (tool: string, live: () => ToolRunner | undefined): ToolRunner =>
    async (args, context) => {
      const matched = matcher.take(tool, args);
      if (matched?.mock.error) {
        throw new TestCaseToolError(matched.mock.error.code, matched.mock.error.message, {
          mock: matched.index,
        });
      }
      if (matched) return matched.mock.output;
      const runner = allowLive ? live() : undefined;
      if (runner) return runner(args, context);
      unexpectedCalls.push({ tool, args });
      throw new TestCaseToolError(
        "unexpected_tool_call",
        `No recorded result of ${tool} matches these args, and this test case does not allow live tools.`,
        { tool, args },
      );
    };

  const servedModules = new Map(modules);
  const originals = new Map<string, ToolSpec>();
  const tools = options.spec.tools.map((tool): ToolSpec => {
    const ref = `${TEST_REF_PREFIX}${tool.name}`;
    originals.set(tool.name, tool);
    if (tool.impl.kind === "module") {
      const definition = modules.get(tool.impl.ref);
      if (definition === undefined) return { ...tool, impl: { kind: "module", ref } };
      const live = (): ToolRunner => (args, context) =>
        Promise.resolve(definition.run(args as never, context));
      servedModules.set(ref, { ...definition, run: serve(tool.name, live) as ToolDefinition["run"] });
      return { ...tool, impl: { kind: "module", ref } };
    }
    // A mock tool is run by the planner itself: as a module the catalog does not know, it reaches the resolver.
    return tool.impl.kind === "mock" ? { ...tool, impl: { kind: "module", ref } } : tool;
  });

  const resolveImpl: ImplResolver = (tool) => {
    const original = originals.get(tool.name) ?? tool;
    const live = (): ToolRunner | undefined =>
      original.impl.kind === "mock"
        ? createMockToolRunner(original.impl, {
            toolName: original.name,
            ...(options.random ? { random: options.random } : {}),
            ...(options.sleep ? { sleep: options.sleep } : {}),
          })
        : options.resolveImpl?.(original);
    return serve(tool.name, live);
  };
  return {
    spec: { ...options.spec, tools },
    moduleTools: servedModules,
    resolveImpl,
    matcher,
    unexpectedCalls,
  };
}
