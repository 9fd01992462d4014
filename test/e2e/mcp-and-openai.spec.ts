import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "@playwright/test";
import OpenAI from "openai";
import { expect, test } from "./fixtures.js";
import { toolNode } from "./designer-helpers.js";
import { getAnswer, getRunEvents, getToolStarts, openAgent, waitForRunStatus } from "./runs-helpers.js";

/** An example agent, called as a model (`/v1`) and as an MCP tool (`/mcp`). */
const AGENT = "support-triage";
const TOOLS = ["triage", "retrieve_docs", "summarize"] as const;

/** The agent's run history, open in the run panel, before any call is made. */
async function openRunHistory(page: Page): Promise<void> {
  await openAgent(page, AGENT);
  await page.getByTestId("run-button").click();
  await page.getByTestId("run-tab-history").click();
  await expect(page.getByTestId("run-history")).toBeVisible();
}

function getHistoryItem(page: Page, runId: string) {
  return page.getByTestId("run-history").locator(`[data-testid='run-history-item'][data-run-id='${runId}']`);
}

/**
 * The run appears in the open history without a reload, opens on the canvas and plays there to its end:
 * a run made by another program is watched like one started from the designer.
 */
async function expectRunOnCanvas(page: Page, options: { runId: string; query: string }): Promise<void> {
  const { runId, query } = options;
  const item = getHistoryItem(page, runId);
  await expect(item).toBeVisible({ timeout: 20_000 });
  await expect(item).toContainText(query);
  await expect(item).toHaveAttribute("data-status", "finished", { timeout: 20_000 });
  await item.getByRole("button", { name: /^(Watch|Replay) run/ }).click();
  await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", runId);
  await expect(page).toHaveURL(new RegExp(`#/agents/${AGENT}/runs/${runId}$`));
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
  for (const tool of TOOLS) await expect(toolNode(page, tool)).toHaveAttribute("data-run-state", "succeeded");
}

test("the openai client calls an agent at /v1 (streamed): the run shows up live in its history and opens on the canvas", async ({
  page,
  request,
  baseURL,
}) => {
  const openai = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: "none", maxRetries: 0 });
  const models = await openai.models.list();
  expect(models.data.map((model) => model.id)).toContain(AGENT);

  await openRunHistory(page);
  const query = `My invoice shows a duplicate charge (${Date.now().toString(36)})`;
  const { data: stream, response } = await openai.chat.completions
    .create({
      model: AGENT,
      messages: [
        { role: "user", content: "Hello, I have a billing question." },
        { role: "assistant", content: "Sure, what is it?" },
        { role: "user", content: query },
      ],
      stream: true,
      stream_options: { include_usage: true },
    })
    .withResponse();
  const runId = response.headers.get("x-waddle-run-id");
  expect(runId).toMatch(/^run_/);
  // the page learns of the run from the server alone (no reload), before the caller has read the answer
  await expect(getHistoryItem(page, runId!)).toBeVisible({ timeout: 20_000 });

  let content = "";
  let finishReason: string | null = null;
  let usage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of stream) {
    expect(chunk.object).toBe("chat.completion.chunk");
    expect(chunk.id).toBe(`chatcmpl-${runId}`);
    expect(chunk.model).toBe(AGENT);
    const choice = chunk.choices[0];
    content += choice?.delta.content ?? "";
    finishReason = choice?.finish_reason ?? finishReason;
    if (chunk.usage) usage = chunk.usage;
  }
  expect(finishReason).toBe("stop");
  expect(usage?.total_tokens).toBeGreaterThan(0);

  // recorded like any other run: the last message is its query, the answer is what was streamed
  const run = await waitForRunStatus(request, runId!, "finished");
  expect(run.agentId).toBe(AGENT);
  expect(run.query).toBe(query);
  expect(content).toBe(getAnswer(run));
  expect(getToolStarts(await getRunEvents(request, runId!)).map((event) => event.data.tool)).toEqual([
    ...TOOLS,
  ]);
  await expectRunOnCanvas(page, { runId: runId!, query });
});

test("the official MCP client calls an agent at /mcp: the run shows up live in its history and opens on the canvas", async ({
  page,
  request,
  baseURL,
}) => {
  const client = new Client({ name: "waddle-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`)));
  try {
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === AGENT);
    expect(tool?.inputSchema.required).toEqual(["query"]);

    await openRunHistory(page);
    const query = `The app crashes when I export a report (${Date.now().toString(36)})`;
    const progress: string[] = [];
    const call = client.callTool({ name: AGENT, arguments: { query } }, undefined, {
      onprogress: (notification) => progress.push(notification.message ?? String(notification.progress)),
    });
    // the page learns of the run from the server alone (no reload): the item with this query
    const item = page.getByTestId("run-history-item").filter({ hasText: query });
    await expect(item).toBeVisible({ timeout: 20_000 });
    const runId = await item.getAttribute("data-run-id");
    const result = await call;
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { runId: string; status: string; answer: string };
    expect(structured.status).toBe("finished");
    expect(structured.runId).toBe(runId);
    expect(result.content).toEqual([{ type: "text", text: structured.answer }]);
    // a progress notification per step
    expect(progress.length).toBeGreaterThan(0);

    const run = await waitForRunStatus(request, structured.runId, "finished");
    expect(run.agentId).toBe(AGENT);
    expect(run.query).toBe(query);
    expect(getAnswer(run)).toBe(structured.answer);
    await expectRunOnCanvas(page, { runId: structured.runId, query });
  } finally {
    await client.close();
  }
});
