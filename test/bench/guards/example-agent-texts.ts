import { existsSync, readFileSync } from "node:fs";
import { listExampleAgentFiles } from "@waddle/examples";
import { z } from "zod";

/** A string an example agent is asked, produces or is answered with, and where it was found. */
export interface ExampleText {
  source: string;
  text: string;
  /**
   * An output of a tool the agent's own `prompt_injection` guard watches: the example plants an injection
   * there to show the guard at work, so it is a detection to expect, not a false positive.
   */
  planted: boolean;
}

const Spec = z.looseObject({
  sampleQueries: z.array(z.string()).optional(),
  guards: z
    .array(
      z.looseObject({
        on: z.string(),
        check: z.looseObject({ kind: z.string() }),
        tools: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  tools: z.array(
    z.looseObject({ name: z.string(), impl: z.looseObject({ output: z.unknown().optional() }) }),
  ),
});

const Suite = z.looseObject({
  cases: z.array(
    z.looseObject({
      id: z.string(),
      query: z.string().optional(),
      mocks: z.array(z.looseObject({ tool: z.string(), output: z.unknown().optional() })).optional(),
      llmReplies: z.array(z.looseObject({ content: z.string() })).optional(),
      expect: z.looseObject({ answer: z.unknown().optional() }).optional(),
    }),
  ),
});

/** Every string leaf of a value (keys left out). */
function getStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(getStrings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(getStrings);
  return [];
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));

/**
 * The example agents' sample queries, their mock tools' outputs, and from their test suites each case's
 * query, mocked tool outputs, recorded model replies and expected answer: the texts a guard on those
 * agents would read. Tool descriptions and prompts are left out: they are the author's, not a tool's.
 */
export function collectExampleAgentTexts(): ExampleText[] {
  const texts: ExampleText[] = [];
  for (const agent of listExampleAgentFiles()) {
    const spec = Spec.parse(readJson(agent.file));
    const watched = (spec.guards ?? []).filter(
      (guard) => guard.on === "tool_result" && guard.check.kind === "prompt_injection",
    );
    const isWatched = (tool: string) =>
      watched.some((guard) => guard.tools === undefined || guard.tools.includes(tool));
    const add = (source: string, value: unknown, tool?: string) => {
      for (const text of getStrings(value)) {
        if (text.trim().length > 0)
          texts.push({ source, text, planted: tool !== undefined && isWatched(tool) });
      }
    };
    add(`${agent.id} sampleQueries`, spec.sampleQueries);
    for (const tool of spec.tools) add(`${agent.id} tool ${tool.name} output`, tool.impl.output, tool.name);
    if (!existsSync(agent.testsFile)) continue;
    for (const testCase of Suite.parse(readJson(agent.testsFile)).cases) {
      add(`${agent.id} ${testCase.id} query`, testCase.query);
      for (const mock of testCase.mocks ?? []) {
        add(`${agent.id} ${testCase.id} mock ${mock.tool}`, mock.output, mock.tool);
      }
      add(
        `${agent.id} ${testCase.id} llm replies`,
        testCase.llmReplies?.map((reply) => reply.content),
      );
      add(`${agent.id} ${testCase.id} expected answer`, testCase.expect?.answer);
    }
  }
  return texts;
}
