import type { APIRequestContext, Locator, Page } from "@playwright/test";
import type { SessionRecord } from "@waddle/protocol";
import { expect, test } from "./fixtures.js";
import { saveScreenshot, toolNode } from "./designer-helpers.js";
import { createAgent, getAgentSpec, getUniqueId, openAgent } from "./runs-helpers.js";
import { createGates } from "./gates.js";

/** GET /api/sessions/:id */
async function getSession(request: APIRequestContext, sessionId: string): Promise<SessionRecord> {
  const answer = await request.get(`/api/sessions/${sessionId}`);
  expect(answer.status()).toBe(200);
  return (await answer.json()) as SessionRecord;
}

/** Opens the run panel on its Chat tab. */
async function openChatTab(page: Page): Promise<void> {
  const panel = page.getByTestId("run-panel");
  if (!(await panel.isVisible())) await page.getByTestId("run-button").click();
  await page.getByTestId("chat-tab").click();
  await expect(page.getByTestId("chat-panel")).toBeVisible();
}

/** Types a message and sends it; returns the turn's element. */
async function sendMessage(page: Page, text: string, turn: number): Promise<Locator> {
  await page.getByTestId("chat-input").fill(text);
  await expect(page.getByTestId("chat-send")).toBeEnabled();
  await page.getByTestId("chat-send").click();
  const item = page.locator(`[data-testid='chat-turn'][data-turn='${turn}']`);
  await expect(item).toBeVisible();
  await expect(item.locator(".chat-bubble")).toHaveText(text);
  return item;
}

/** The session the page's route names. */
function getRouteSessionId(page: Page): string {
  const match = /#\/agents\/[^/]+\/sessions\/(ses_[A-Za-z0-9_-]+)$/.exec(page.url());
  if (!match) throw new Error(`the route names no session: ${page.url()}`);
  return match[1]!;
}

test("a three-turn chat with the support example on the offline model survives a reload mid-turn", async ({
  page,
  request,
}) => {
  // the example with gated tools: a turn runs until the test opens the gates, so it is still running when
  // the page looks at it or reloads
  const id = getUniqueId("chat-triage");
  const gates = createGates("chat-triage");
  await createAgent(request, {
    ...gates.gate(await getAgentSpec(request, "support-triage")),
    id,
    name: "Chat triage",
  });
  await openAgent(page, id);
  await openChatTab(page);
  await expect(page.getByTestId("chat-empty")).toBeVisible();
  await page.getByTestId("chat-new").click();

  // turn 1: the chat is opened by its first message; the route names it and Send waits for the answer
  const first = await sendMessage(page, "My invoice shows a duplicate charge for March", 1);
  await expect(page).toHaveURL(/#\/agents\/[^/]+\/sessions\/ses_/);
  const sessionId = getRouteSessionId(page);
  await expect(page.getByTestId("chat-send")).toBeDisabled();
  await expect(page.getByTestId("chat-send-reason")).toHaveText("Turn 1 is running: wait for its answer.");
  // the turn runs live on the canvas, as a run started from the Run tab does
  await expect(page.getByTestId("run-canvas-bar")).toBeVisible();
  await expect(toolNode(page, "triage")).toHaveAttribute("data-run-state", "running");
  await gates.openAll();
  await expect(first).toHaveAttribute("data-status", "finished", { timeout: 30_000 });
  const afterOne = await getSession(request, sessionId);
  await expect(first.getByTestId("chat-answer")).toHaveText(afterOne.turns[0]!.answer!);

  // turn 2, and a reload while it runs (held at triage's gate): the page comes back to the same chat and thread
  await gates.closeAll();
  const second = await sendMessage(page, "And how long until the refund shows up?", 2);
  await expect(second).toHaveAttribute("data-status", "running");
  await expect(toolNode(page, "triage")).toHaveAttribute("data-run-state", "running");
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}$`));
  await expect(page.getByTestId("chat-meta")).toHaveAttribute("data-session-id", sessionId);
  await expect(page.getByTestId("chat-turn")).toHaveCount(2);
  await expect(
    page.locator("[data-testid='chat-turn'][data-turn='1'] [data-testid='chat-answer']"),
  ).toHaveText(afterOne.turns[0]!.answer!);
  const reloadedSecond = page.locator("[data-testid='chat-turn'][data-turn='2']");
  await expect(reloadedSecond).toHaveAttribute("data-status", "running");
  await gates.openAll();
  await expect(reloadedSecond).toHaveAttribute("data-status", "finished", { timeout: 30_000 });

  // turn 3
  const third = await sendMessage(page, "Thanks. Can I get it as store credit instead?", 3);
  await expect(third).toHaveAttribute("data-status", "finished", { timeout: 30_000 });
  await expect(page.getByTestId("chat-send-reason")).toHaveText("");

  // the thread is the session the server holds: three turns in order, each answer as stored
  const session = await getSession(request, sessionId);
  expect(session.status).toBe("idle");
  expect(session.turns.map((turn) => turn.query)).toEqual([
    "My invoice shows a duplicate charge for March",
    "And how long until the refund shows up?",
    "Thanks. Can I get it as store credit instead?",
  ]);
  const answers = page.getByTestId("chat-answer");
  await expect(answers).toHaveText(session.turns.map((turn) => turn.answer!));
  await page.getByTestId("chat-input").fill("");
  await saveScreenshot(page, "chat-three-turns");

  // a turn opens on the canvas as a run
  await reloadedSecond.getByTestId("chat-turn-open").click();
  await expect(reloadedSecond.getByTestId("chat-turn-open")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("run-canvas-bar")).toHaveAttribute("data-mode", "replay");
  await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}$`));

  // the list of chats: this one, found by search, opens again
  await page.getByTestId("chat-back").click();
  // the route no longer names the chat (the turn picked is still on the canvas: the route names its run)
  await expect(page).not.toHaveURL(/\/sessions\//);
  const item = page.locator(`[data-testid='chat-session-item'][data-session-id='${sessionId}']`);
  await expect(item).toContainText("My invoice shows a duplicate charge for March");
  await expect(item).toContainText("3 turns");
  await page.getByTestId("chat-search").fill("no such words");
  await expect(page.getByTestId("chat-session-item")).toHaveCount(0);
  await page.getByTestId("chat-search").fill("duplicate MARCH");
  await expect(page.getByTestId("chat-session-item")).toHaveCount(1);
  await saveScreenshot(page, "chat-list");
  await item.click();
  await expect(page.getByTestId("chat-turn")).toHaveCount(3);
  await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}$`));
});

test("a turn that pauses for approval is decided inline in the thread", async ({ page, request }) => {
  const id = getUniqueId("chat-email");
  await createAgent(request, { ...(await getAgentSpec(request, "email-approval")), id });
  await openAgent(page, id);
  await openChatTab(page);
  await page.getByTestId("chat-new").click();
  const turn = await sendMessage(page, "Email Dana that the Q3 report is ready for review", 1);

  const card = turn.getByTestId("approval-card");
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(turn).toHaveAttribute("data-status", "paused");
  await expect(card.getByTestId("approval-args")).toContainText("dana.reyes@example.com");
  await expect(page.getByTestId("chat-send")).toBeDisabled();
  await expect(page.getByTestId("chat-send-reason")).toHaveText("Turn 1 waits for your decision above.");
  await saveScreenshot(page, "chat-paused-turn");

  await card.getByTestId("approval-note").fill("Fine to send");
  await card.getByTestId("approve-button").click();
  await expect(card).toBeHidden();
  await expect(turn).toHaveAttribute("data-status", "finished", { timeout: 30_000 });
  const session = await getSession(request, getRouteSessionId(page));
  await expect(turn.getByTestId("chat-answer")).toHaveText(session.turns[0]!.answer!);
  await page.getByTestId("chat-input").fill("Now tell Sam the launch moved to Thursday");
  await expect(page.getByTestId("chat-send")).toBeEnabled();
});

test("a background task outlives turn 1, its gated result is applied from the tray, and turn 2 answers from it", async ({
  page,
  request,
}) => {
  // background-research with results that wait for a person (HUMAN_GATED) before they reach a turn
  // and web_research gated: the task runs until the test opens its gate (not for the mock's 3 s)
  const id = getUniqueId("chat-gated");
  const gates = createGates("chat-gated");
  const example = gates.gate(await getAgentSpec(request, "background-research"), ["web_research"]);
  const planner = example.planner as { tasks: Record<string, unknown> };
  await createAgent(request, {
    ...example,
    id,
    name: "Gated research",
    planner: { ...planner, tasks: { ...planner.tasks, defaultMergeStrategy: "HUMAN_GATED" } },
  });
  await openAgent(page, id);
  await openChatTab(page);
  await page.getByTestId("chat-new").click();

  // turn 1 answers at once; its task (a sub-agent whose research waits at the gate) goes on
  const first = await sendMessage(page, "Research the market for electric bikes in the background", 1);
  await expect(first).toHaveAttribute("data-status", "finished", { timeout: 30_000 });
  await expect(first.getByTestId("chat-answer")).toContainText("in the background");
  const task = page.getByTestId("chat-task-item");
  await expect(task).toHaveCount(1);
  await expect(task).toHaveAttribute("data-task-status", /queued|running/);
  await page.getByTestId("chat-input").fill("x");
  await expect(page.getByTestId("chat-send")).toBeEnabled();
  await page.getByTestId("chat-input").fill("");
  const sessionId = getRouteSessionId(page);

  // the task ends after its turn; its result waits in the tray, and survives a reload
  await expect(task).toHaveAttribute("data-task-status", "running");
  await gates.open("web_research");
  await expect(task).toHaveAttribute("data-task-status", "completed", { timeout: 30_000 });
  await expect(page.getByTestId("chat-merge")).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId("chat-task-item")).toHaveAttribute("data-task-status", "completed");
  await expect(page.getByTestId("chat-turn")).toHaveCount(1);
  expect((await getSession(request, sessionId)).pendingMerges).toHaveLength(1);
  await page.getByTestId("chat-merge-note").fill("checked the sources");
  await saveScreenshot(page, "chat-tray-merge");
  await page.getByTestId("chat-merge-approve").click();
  await expect(page.getByTestId("chat-merge")).toHaveCount(0);
  const applied = await getSession(request, sessionId);
  expect(applied.pendingMerges).toEqual([]);
  const log = (await (await request.get(`/api/sessions/${sessionId}/events`)).json()) as {
    events: { type: string; data: Record<string, unknown> }[];
  };
  expect(log.events.find((event) => event.type === "merge_decided")?.data).toMatchObject({
    decision: "approve",
    note: "checked the sources",
  });

  // turn 2 answers from the applied result; turn 3 goes on as a plain turn
  const second = await sendMessage(page, "What did the research find?", 2);
  await expect(second).toHaveAttribute("data-status", "finished", { timeout: 30_000 });
  await expect(second.getByTestId("chat-answer")).toContainText("demand is growing");
  const third = await sendMessage(page, "Thanks, that is all", 3);
  await expect(third).toHaveAttribute("data-status", "finished", { timeout: 30_000 });
  expect((await getSession(request, sessionId)).turns).toHaveLength(3);
});
