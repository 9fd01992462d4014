import { readFileSync } from "node:fs";
import { AgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AutoSeqStep, type AutoSeqTool, detectTransition } from "./auto-seq.js";
import { AutoSeqCache } from "./auto-seq-cache.js";

// The five-tool document pipeline of docs/auto-seq.md, as the example agent declares it.
const specUrl = new URL("../../../../apps/examples/agents/document-pipeline.json", import.meta.url);
const spec = AgentSpec.parse(JSON.parse(readFileSync(specUrl, "utf8")));
const tools: AutoSeqTool[] = spec.tools.map((tool) => ({
  name: tool.name,
  sideEffects: tool.sideEffects,
  autoSeq: tool.autoSeq,
  args: z.fromJSONSchema(tool.argsSchema),
}));
const titleOf = (name: string): string | undefined => {
  const title = spec.tools.find((tool) => tool.name === name)?.outSchema["title"];
  return typeof title === "string" ? title : undefined;
};

// What each tool returns (the mock outputs, rendered), in pipeline order.
const query = { text: "Summarize the contracts in the Q3 document folder" };
const roadmap = ["parse", "extract metadata", "summarize"];
const sources = ["contract-a.pdf", "contract-b.pdf", "renewal-terms.docx"];
const outputs: Record<string, unknown> = {
  triage_query: { query, route: "documents", confidence: 0.9, reason: "mentions documents" },
  initialize_document_workflow: { query, roadmap, stage: "initialized", sources: [], metadata: {} },
  parse_documents: { query, roadmap, stage: "parsed", sources },
  extract_metadata: { query, roadmap, stage: "metadata_extracted", sources, metadata: { documents: 3 } },
};

describe("the document pipeline example", () => {
  it("gives `unique` at each link, along the auto_seq edges", () => {
    const cache = new AutoSeqCache();
    const steps: AutoSeqStep[] = [];
    const chosen: string[] = [];
    let current = "triage_query";
    while (outputs[current] !== undefined) {
      steps.push({ next_node: current, observation: outputs[current], payloadType: titleOf(current) });
      const result = detectTransition({ steps, tools, readOnlyOnly: true, autoSeqEdges: spec.edges, cache });
      expect(result.status, `after ${current}`).toBe("unique");
      current = result.action?.next_node ?? "";
      chosen.push(current);
    }
    expect(chosen).toEqual([
      "initialize_document_workflow",
      "parse_documents",
      "extract_metadata",
      "generate_summary",
    ]);
  });

  it("needs the edges: DocumentState alone has several consumers", () => {
    const steps = [
      { next_node: "initialize_document_workflow", observation: outputs["initialize_document_workflow"] },
    ];
    const result = detectTransition({ steps, tools, readOnlyOnly: true });
    expect(result.status).toBe("ambiguous");
    expect(result.candidates).toEqual(["parse_documents", "extract_metadata", "generate_summary"]);
  });

  it("fingerprints by output type and key set, never by values", () => {
    const steps = [
      { next_node: "triage_query", observation: outputs["triage_query"], payloadType: "RouteDecision" },
    ];
    const result = detectTransition({ steps, tools, readOnlyOnly: true, autoSeqEdges: spec.edges });
    expect(result.fingerprint).toMatchObject({ payload_type: "RouteDecision", payload_keys_count: 4 });
    expect(result.fingerprint?.payload_fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const other = detectTransition({
      steps: [
        { ...steps[0]!, observation: { query: { text: "other" }, route: "bug", confidence: 0, reason: "" } },
      ],
      tools,
      readOnlyOnly: true,
    });
    expect(other.fingerprint).toEqual(result.fingerprint);
    expect(JSON.stringify(result.fingerprint)).not.toContain("documents");
  });

  it("a route the schema refuses is not a transition", () => {
    const steps = [{ next_node: "triage_query", observation: { query, route: "bug", confidence: 0.95 } }];
    expect(detectTransition({ steps, tools, readOnlyOnly: true, autoSeqEdges: spec.edges }).status).toBe(
      "none",
    );
  });
});
