import { fixtureReply } from "@waddle/planner/testing";
import type { APIRequestContext } from "@playwright/test";
import { getFixtureLlm, scriptFixture } from "./llm-fixture.js";
import { createAgent, startRunOverRest, waitForRunStatus } from "./runs-helpers.js";

export const ORDERS_QUERY = "Can order 1042 ship today?";

/**
 * Saves a two-tool orders agent on the OpenAI-compatible fixture (lookup_order, then check_stock) and runs
 * it once to its answer with scripted replies; returns the finished run's id. The fork and Tests specs start
 * from this run.
 */
export async function recordOrdersRun(
  request: APIRequestContext,
  agent: { id: string; name: string },
): Promise<string> {
  await createAgent(request, {
    version: 1,
    id: agent.id,
    name: agent.name,
    llm: getFixtureLlm(),
    tools: [
      {
        name: "lookup_order",
        desc: "Looks an order up.",
        sideEffects: "read",
        argsSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
        impl: { kind: "mock", latencyMs: 20, output: { sku: "A-7" } },
      },
      {
        name: "check_stock",
        desc: "Says how many of a SKU are in stock.",
        sideEffects: "read",
        argsSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
        outSchema: { type: "object", properties: { stock: { type: "string" } }, required: ["stock"] },
        impl: { kind: "mock", latencyMs: 20, output: { stock: "12 left" } },
      },
    ],
  });
  await scriptFixture([
    fixtureReply.json({ next_node: "lookup_order", args: { order: "1042" } }),
    fixtureReply.json({ next_node: "check_stock", args: { sku: "A-7" } }),
    fixtureReply.finalAnswer("It ships today: 12 left."),
  ]);
  const runId = await startRunOverRest(request, { agentId: agent.id, query: ORDERS_QUERY });
  await waitForRunStatus(request, runId, "finished");
  return runId;
}
