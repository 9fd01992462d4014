import type { Page } from "@playwright/test";
import type { SessionRecord } from "@waddle/protocol";
import { expect, test } from "./fixtures.js";
import { saveScreenshot, startServer, toolNode } from "./designer-helpers.js";
import { createAgent, getAgentSpec, getUniqueId, openAgent } from "./runs-helpers.js";
import { createGates } from "./gates.js";

const TOKEN = "e2e-chat-token-0123456789abcdef";

/** A REST call to a server started with TOKEN, as its admin. */
async function api(url: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function readJson<T>(response: Response, status: number): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}

/** A chat whose turn 1 left a background result waiting for a person (HUMAN_GATED). */
async function createHeldMerge(url: string, agentId: string, query: string): Promise<string> {
  const { sessionId } = await readJson<{ sessionId: string }>(
    await api(url, "POST", "/api/sessions", { agentId }),
    201,
  );
  await readJson(await api(url, "POST", `/api/sessions/${sessionId}/turns`, { query }), 202);
  await expect
    .poll(
      async () =>
        (await readJson<SessionRecord>(await api(url, "GET", `/api/sessions/${sessionId}`), 200))
          .pendingMerges.length,
      { timeout: 30_000 },
    )
    .toBe(1);
  return sessionId;
}

/** Opens a chat by its address and decides its waiting merge from the tray, with a note. */
async function decideInTray(
  page: Page,
  input: { url: string; agentId: string; sessionId: string; note: string; button: "approve" | "reject" },
): Promise<void> {
  await page.goto(`${input.url}/#/agents/${input.agentId}/sessions/${input.sessionId}`);
  await expect(page.getByTestId("chat-merge")).toHaveCount(1);
  await page.getByTestId("chat-merge-note").fill(input.note);
  await page.getByTestId(`chat-merge-${input.button}`).click();
  await expect(page.getByTestId("chat-merge")).toHaveCount(0);
}

test("after Apply or Reject the chat tray shows the decision, the note and who decided", async ({ page }) => {
  const server = await startServer({ WADDLE_TOKEN: TOKEN });
  try {
    const editor = await readJson<{ key: string }>(
      await api(server.url, "POST", "/api/keys", { name: "Edwina Editor", role: "editor" }),
      201,
    );
    const example = await readJson<{ spec: Record<string, unknown> }>(
      await api(server.url, "GET", "/api/agents/background-research"),
      200,
    );
    const planner = example.spec.planner as { tasks: Record<string, unknown> };
    const agentId = "gated-research";
    await readJson(
      await api(server.url, "POST", "/api/agents", {
        ...example.spec,
        id: agentId,
        name: "Gated research",
        planner: { ...planner, tasks: { ...planner.tasks, defaultMergeStrategy: "HUMAN_GATED" } },
      }),
      201,
    );
    const toApply = await createHeldMerge(server.url, agentId, "Research electric bikes in the background");
    const toReject = await createHeldMerge(server.url, agentId, "Research cargo bikes in the background");

    await page.goto(`${server.url}/#/agents/${agentId}`);
    await page.getByTestId("signin-key").fill(editor.key);
    await page.getByTestId("signin-submit").click();
    await expect(page.getByTestId("whoami")).toHaveText(/Edwina Editor · editor/);

    await decideInTray(page, {
      url: server.url,
      agentId,
      sessionId: toApply,
      note: "Checked the sources",
      button: "approve",
    });
    const applied = page.getByTestId("chat-merge-decided");
    await expect(applied).toHaveAttribute("data-decision", "approve");
    await expect(applied.getByTestId("chat-merge-decision")).toHaveText("applied");
    await expect(applied.getByTestId("chat-merge-decider")).toContainText("by Edwina Editor");
    await expect(applied.getByTestId("chat-merge-decided-note")).toHaveText("Checked the sources");
    await expect(page.getByTestId("chat-task-decision")).toHaveText(["applied"]);
    await page
      .getByTestId("chat-tray")
      .screenshot({ path: "test/e2e/artifacts/first-hour-chat-tray-applied.png" });
    await saveScreenshot(page, "first-hour-chat-applied");

    await decideInTray(page, {
      url: server.url,
      agentId,
      sessionId: toReject,
      note: "Wrong market: we sell city bikes",
      button: "reject",
    });
    const rejected = page.getByTestId("chat-merge-decided");
    await expect(rejected).toHaveAttribute("data-decision", "reject");
    await expect(rejected.getByTestId("chat-merge-decision")).toHaveText("rejected");
    await expect(rejected.getByTestId("chat-merge-decider")).toContainText("by Edwina Editor");
    await expect(rejected.getByTestId("chat-merge-decided-note")).toHaveText(
      "Wrong market: we sell city bikes",
    );
    await expect(page.getByTestId("chat-task-decision")).toHaveText(["rejected"]);
    await page
      .getByTestId("chat-tray")
      .screenshot({ path: "test/e2e/artifacts/first-hour-chat-tray-rejected.png" });
    await saveScreenshot(page, "first-hour-chat-rejected");

    // the decision is the session's: a reload shows it the same
    await page.reload();
    await expect(page.getByTestId("chat-merge-decided")).toHaveAttribute("data-decision", "reject");
  } finally {
    await server.stop();
  }
});

test("after a reload mid-turn the canvas shows the chat's turn live, not the editor", async ({
  page,
  request,
}) => {
  // triage is held at its gate: the turn is still running when the page reloads
  const id = getUniqueId("chat-reload");
  const gates = createGates("chat-reload");
  await createAgent(request, {
    ...gates.gate(await getAgentSpec(request, "support-triage"), ["triage"]),
    id,
    name: "Chat reload",
  });
  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  await page.getByTestId("chat-tab").click();
  await page.getByTestId("chat-new").click();
  await page.getByTestId("chat-input").fill("My invoice shows a duplicate charge for March");
  await page.getByTestId("chat-send").click();
  await expect(page).toHaveURL(/#\/agents\/[^/]+\/sessions\/ses_/);
  await expect(page.getByTestId("run-canvas-bar")).toHaveAttribute("data-mode", "live");
  await expect(toolNode(page, "triage")).toHaveAttribute("data-run-state", "running");

  await page.reload();
  await expect(page.getByTestId("chat-turn")).toHaveCount(1);
  await expect(page.locator("[data-testid='chat-turn'][data-turn='1']")).toHaveAttribute(
    "data-status",
    "running",
  );
  // the canvas follows the turn again, as it did before the reload
  await expect(page.getByTestId("run-canvas-bar")).toHaveAttribute("data-mode", "live");
  await expect(toolNode(page, "triage")).toHaveAttribute("data-run-state", "running");
  await saveScreenshot(page, "first-hour-chat-reloaded-mid-turn");
  await gates.openAll();
  await expect(page.locator("[data-testid='chat-turn'][data-turn='1']")).toHaveAttribute(
    "data-status",
    "finished",
    { timeout: 30_000 },
  );
  await expect(toolNode(page, "summarize")).toHaveAttribute("data-run-state", "succeeded");
});
