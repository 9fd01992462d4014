import { createHmac } from "node:crypto";
import { AgentSpec, FinalPayload, type PlannerFinishResult } from "@waddle/protocol";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { PlannerFactory } from "../runs/planner-factory.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

/** The context each run's planner was given, by run id: what the LLM sees beside the query. */
const contexts = new Map<string, Record<string, unknown> | undefined>();
const finish: PlannerFinishResult = {
  kind: "finish",
  reason: "answer_complete",
  payload: FinalPayload.parse({ answer: "done" }),
  metadata: {
    steps: 0,
    llmCalls: 0,
    autoSeqSavedCalls: 0,
    usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
    durationMs: 0,
  },
};
/** A planner that only notes its context: the delivery's way into the run is what is tested here. */
const recordingPlanner: PlannerFactory = async ({ runId }) => ({
  offline: true,
  planner: {
    run: async (_query, options) => {
      contexts.set(runId, options.contextMeta);
      return finish;
    },
    resume: async () => finish,
  },
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ exampleAgentsDir: null, createPlanner: recordingPlanner });
  await server.store.createAgent({
    spec: AgentSpec.parse({
      version: 1,
      id: "triage",
      name: "Triage",
      tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: {} } }],
    }),
  });
});
afterAll(() => server.stop());

it("puts the delivery's JSON and the trigger's context into the run's context", async () => {
  const created = await server.request("/api/agents/triage/triggers", {
    method: "POST",
    json: {
      kind: "webhook",
      query: "Triage {{body.subject}}",
      secretMode: "hmac",
      context: { team: "support" },
    },
  });
  const { trigger, secret } = created.body as { trigger: { id: string }; secret: string };
  const body = JSON.stringify({ subject: "Refund", customer: { tier: "gold" } });
  const t = Math.floor(Date.now() / 1000);
  const signature = `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
  const accepted = await server.request(`/hooks/${trigger.id}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "waddle-signature": signature },
  });
  expect(accepted.status, accepted.text).toBe(202);
  const run = await waitForRun(server, accepted.body.runId as string);
  expect(run.status).toBe("finished");
  expect(contexts.get(run.id)).toEqual({
    team: "support",
    trigger: { id: trigger.id, kind: "webhook", firedAt: expect.any(String) },
    body: { subject: "Refund", customer: { tier: "gold" } },
  });
});
