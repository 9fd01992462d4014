import { AgentSpec, type AgentSpecInput } from "@waddle/protocol";

export const AGENT_TEMPLATE_IDS = ["blank", "pipeline", "fan-out"] as const;
export type AgentTemplateId = (typeof AGENT_TEMPLATE_IDS)[number];

export const AGENT_TEMPLATES: Record<AgentTemplateId, { label: string; blurb: string }> = {
  blank: { label: "Blank", blurb: "An empty canvas." },
  pipeline: { label: "Three-step pipeline", blurb: "search → rank → summarize, chained by auto-seq edges." },
  "fan-out": { label: "Parallel fan-out", blurb: "Two searches in a parallel group, merged by a join tool." },
};

const stringList = { type: "array", items: { type: "string" } };
const object = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: "object",
  properties,
  required,
});

function getTemplateParts(template: AgentTemplateId): Partial<AgentSpecInput> {
  switch (template) {
    case "blank":
      return {};
    case "pipeline":
      return {
        sampleQueries: ["How do I reset my password?"],
        planner: { autoSeq: { enabled: true, execute: true, readOnlyOnly: true } },
        tools: [
          {
            name: "search",
            desc: "Find documents about the query.",
            sideEffects: "read",
            argsSchema: object({ query: { type: "string" } }),
            outSchema: object({ query: { type: "string" }, docs: stringList }),
            impl: {
              kind: "mock",
              output: { query: "{{args.query}}", docs: ["Doc about {{args.query}}", "Another doc"] },
            },
          },
          {
            name: "rank",
            desc: "Order documents by relevance.",
            sideEffects: "pure",
            autoSeq: true,
            argsSchema: object({ query: { type: "string" }, docs: stringList }),
            outSchema: object({ query: { type: "string" }, docs: stringList }),
            impl: { kind: "mock", output: { query: "{{args.query}}", docs: "{{args.docs}}" } },
          },
          {
            name: "summarize",
            desc: "Answer the query from the ranked documents.",
            sideEffects: "pure",
            autoSeq: true,
            argsSchema: object({ query: { type: "string" }, docs: stringList }),
            outSchema: object({ summary: { type: "string" } }),
            impl: { kind: "mock", output: { summary: "From {{args.docs[0]}}: here is the answer." } },
          },
        ],
        edges: [
          { id: "search-rank", kind: "auto_seq", source: "search", target: "rank" },
          { id: "rank-summarize", kind: "auto_seq", source: "rank", target: "summarize" },
        ],
        layout: { nodes: { search: { x: 0, y: 0 }, rank: { x: 330, y: 0 }, summarize: { x: 660, y: 0 } } },
      };
    case "fan-out":
      return {
        sampleQueries: ["What changed in the EU AI Act this year?"],
        tools: [
          {
            name: "search_web",
            desc: "Search the web.",
            sideEffects: "read",
            argsSchema: object({ query: { type: "string" } }),
            outSchema: object({ hits: stringList }),
            impl: { kind: "mock", latencyMs: 300, output: { hits: ["web: {{args.query}}"] } },
          },
          {
            name: "search_news",
            desc: "Search news articles.",
            sideEffects: "read",
            argsSchema: object({ query: { type: "string" } }),
            outSchema: object({ hits: stringList }),
            impl: { kind: "mock", latencyMs: 200, output: { hits: ["news: {{args.query}}"] } },
          },
          {
            name: "merge",
            desc: "Merge the branches' hits into one brief.",
            sideEffects: "pure",
            argsSchema: object({ results: { type: "array" } }),
            outSchema: object({ brief: { type: "string" } }),
            impl: { kind: "mock", output: { brief: "Merged {{args.results}}" } },
          },
        ],
        groups: [
          {
            id: "sources",
            kind: "parallel",
            name: "Search sources",
            members: ["search_web", "search_news"],
            join: { tool: "merge", args: {}, inject: { results: "$results" } },
          },
        ],
        layout: {
          nodes: {
            "group:sources": { x: 0, y: 0, width: 288, height: 308 },
            search_web: { x: 24, y: 48 },
            search_news: { x: 24, y: 180 },
            merge: { x: 400, y: 108 },
          },
        },
      };
  }
}

/** A new agent spec from a template, with the given id and name. */
export function createAgentFromTemplate(options: {
  template: AgentTemplateId;
  id: string;
  name: string;
}): AgentSpec {
  return AgentSpec.parse({
    version: 1,
    id: options.id,
    name: options.name,
    ...getTemplateParts(options.template),
  });
}
