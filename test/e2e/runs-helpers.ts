import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import type { RunEvent, RunRecord } from "@waddle/protocol";
import { expect } from "./fixtures.js";
import { ARTIFACTS_DIR, openDesigner } from "./designer-helpers.js";

/** An agent id no earlier run of the suite used (specs may run repeatedly against one server). */
export function getUniqueId(base: string): string {
  return `${base}-${Date.now().toString(36)}${Math.floor(Math.random() * 1_000).toString(36)}`;
}

/** Saves an agent over REST. */
export async function createAgent(request: APIRequestContext, spec: Record<string, unknown>): Promise<void> {
  const answer = await request.post("/api/agents", { data: spec });
  expect(answer.status(), await answer.text()).toBe(201);
}

/** A saved agent's spec (an example's, say), to copy. */
export async function getAgentSpec(request: APIRequestContext, id: string): Promise<Record<string, unknown>> {
  const answer = await request.get(`/api/agents/${id}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { spec: Record<string, unknown> }).spec;
}

/**
 * An agent of mock tools that the offline model calls in this order, each taking `latencyMs`. To watch a
 * step while it runs, gate the tools (`gates.ts`) rather than betting on a latency.
 */
export function getChainSpec(options: {
  id: string;
  tools: readonly string[];
  latencyMs: number;
}): Record<string, unknown> {
  const { id, tools, latencyMs } = options;
  return {
    version: 1,
    id,
    name: id,
    llm: { provider: "offline", model: "offline" },
    tools: tools.map((name) => ({
      name,
      desc: `Step ${name}`,
      impl: { kind: "mock", latencyMs, output: { done: name } },
    })),
    edges: tools.slice(1).map((name, index) => ({
      id: `${tools[index]}-${name}`,
      kind: "order",
      source: tools[index],
      target: name,
    })),
    hints: { ordering_hints: [...tools] },
  };
}

/** Opens an agent in the designer and waits until it is loaded. */
export async function openAgent(page: Page, agentId: string): Promise<void> {
  await openDesigner(page, `#/agents/${agentId}`);
  await expect(page.getByTestId("save-status")).toHaveText(/^Saved · v\d+$/);
}

/** Starts a run of the open agent from the run panel; returns its id once the panel shows it. */
export async function startRunFromDesigner(page: Page, query: string): Promise<string> {
  const panel = page.getByTestId("run-panel");
  if (!(await panel.isVisible())) await page.getByTestId("run-button").click();
  await expect(panel).toBeVisible();
  await page.getByTestId("run-query").fill(query);
  await page.getByTestId("run-start").click();
  const summary = page.getByTestId("run-summary");
  await expect(summary).toHaveAttribute("data-run-id", /^run_/, { timeout: 20_000 });
  const runId = await summary.getAttribute("data-run-id");
  if (!runId) throw new Error("the run panel shows no run id");
  return runId;
}

/** GET /api/runs/:id */
export async function getRun(request: APIRequestContext, runId: string): Promise<RunRecord> {
  const answer = await request.get(`/api/runs/${runId}`);
  expect(answer.status()).toBe(200);
  return (await answer.json()) as RunRecord;
}

/** GET /api/runs/:id/events: every stored event of the run, in seq order. */
export async function getRunEvents(request: APIRequestContext, runId: string): Promise<RunEvent[]> {
  const answer = await request.get(`/api/runs/${runId}/events`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { events: RunEvent[] }).events;
}

/** Waits (over REST) until the run has one of these statuses. */
export async function waitForRunStatus(
  request: APIRequestContext,
  runId: string,
  status: RunRecord["status"],
): Promise<RunRecord> {
  await expect.poll(async () => (await getRun(request, runId)).status, { timeout: 20_000 }).toBe(status);
  return getRun(request, runId);
}

/** Starts a run over REST. */
export async function startRunOverRest(
  request: APIRequestContext,
  input: { agentId: string; query: string },
): Promise<string> {
  const answer = await request.post("/api/runs", { data: input });
  expect(answer.status(), await answer.text()).toBe(202);
  return ((await answer.json()) as { runId: string }).runId;
}

/** The final answer of a finished run. */
export function getAnswer(run: RunRecord): string {
  const payload = run.result?.kind === "finish" ? (run.result.payload as { answer?: unknown }) : undefined;
  if (typeof payload?.answer !== "string") throw new Error(`run ${run.id} has no answer`);
  return payload.answer;
}

/** The `tool_start` events of a run. */
export function getToolStarts(events: readonly RunEvent[]): Extract<RunEvent, { type: "tool_start" }>[] {
  return events.filter(
    (event): event is Extract<RunEvent, { type: "tool_start" }> => event.type === "tool_start",
  );
}

/** Screenshots the page into the test's output folder, attaches it to the report and keeps a copy. */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const body = await page.screenshot();
  const file = testInfo.outputPath(`${name}.png`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
  await testInfo.attach(name, { path: file, contentType: "image/png" });
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  writeFileSync(path.join(ARTIFACTS_DIR, `${name}.png`), body);
}
