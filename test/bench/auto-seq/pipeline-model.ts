import type { PlannerView } from "@waddle/planner";
import { ScriptedClient, type ScriptedCall } from "@waddle/planner/testing";

/** The document pipeline of apps/examples/agents/document-pipeline.json (packages/planner/docs/auto-seq.md), in order. */
export const PIPELINE = [
  "triage_query",
  "initialize_document_workflow",
  "parse_documents",
  "extract_metadata",
  "generate_summary",
] as const;

/**
 * What a capable model would answer next: triage the query first; after each pipeline tool, call the
 * next one with the previous structured observation as its args; after the summary, answer with it.
 */
export function choosePipelineAction(view: PlannerView): Record<string, unknown> {
  const last = view.steps.at(-1);
  if (last === undefined) return { next_node: PIPELINE[0], args: { text: view.query } };
  const position = PIPELINE.indexOf(last.next_node as (typeof PIPELINE)[number]);
  const next = position < 0 ? undefined : PIPELINE[position + 1];
  if (next === undefined) {
    const summary = (last.observation as { summary?: unknown } | undefined)?.summary;
    return { next_node: "final_response", args: { answer: String(summary ?? "The pipeline finished.") } };
  }
  return { next_node: next, args: last.observation as Record<string, unknown> };
}

/** A scripted client that plans the pipeline from the planner view, with a latency per call. */
export function createPipelineModel(latencyMs: number): ScriptedClient {
  const reply = (call: ScriptedCall) => choosePipelineAction(call.plannerView as PlannerView);
  return new ScriptedClient(
    Array.from({ length: 20 }, () => reply),
    { defaults: { delayMs: latencyMs } },
  );
}
