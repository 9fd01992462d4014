import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { createGates } from "./gates.js";
import {
  attachScreenshot,
  createAgent,
  getAnswer,
  getRun,
  getUniqueId,
  openAgent,
  startRunFromDesigner,
  waitForRunStatus,
} from "./runs-helpers.js";

const QUERY = "What colour is the sky?";

/** One mock tool whose output the offline model answers with, word for word. */
function getSkySpec(id: string, answer: string): Record<string, unknown> {
  return {
    version: 1,
    id,
    name: "Sky colours",
    llm: { provider: "offline", model: "offline" },
    tools: [
      {
        name: "answer_colour",
        desc: "Says the colour of the sky.",
        sideEffects: "read",
        impl: { kind: "mock", output: { answer } },
      },
    ],
  };
}

/** Saves a new version over REST (as another editor or CI would) and reloads the designer on it. */
async function saveVersion(
  page: Page,
  request: APIRequestContext,
  spec: Record<string, unknown>,
  baseVersion: number,
): Promise<void> {
  const answer = await request.put(`/api/agents/${String(spec.id)}`, { data: { spec, baseVersion } });
  expect(answer.status(), await answer.text()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("save-status")).toHaveText(`Saved · v${baseVersion + 1}`);
}

/** `/v1/chat/completions` as an outside caller makes it: the model is the agent id, no version named. */
async function askOverV1(baseURL: string, agentId: string): Promise<{ answer: string; runId: string }> {
  const response = await fetch(`${baseURL}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: agentId, messages: [{ role: "user", content: QUERY }] }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    choices: { message: { content: string } }[];
    waddle: { runId: string };
  };
  return { answer: body.choices[0]!.message.content, runId: body.waddle.runId };
}

function badge(page: Page, channel: string) {
  return page.locator(`[data-testid='channel-badge'][data-channel='${channel}']`);
}

test("a failing case blocks a release and says why; the fix is released, served on /v1 while Run runs a newer save, then rolled back", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const id = getUniqueId("releases-sky");
  const gates = createGates("releases");
  await createAgent(request, getSkySpec(id, "The sky is blue."));
  const suite = await request.put(`/api/agents/${id}/tests`, {
    data: {
      version: 1,
      agentId: id,
      cases: [
        {
          id: "sky-blue",
          name: "says the sky is blue",
          query: QUERY,
          expect: { answer: { contains: ["blue"] } },
        },
      ],
    },
  });
  expect(suite.status(), await suite.text()).toBe(200);

  // v1: the first release of production, through the dialog. No badge before it.
  await openAgent(page, id);
  await expect(page.getByTestId("channel-badge")).toHaveCount(0);
  await page.getByTestId("release-open").click();
  const dialog = page.getByTestId("release-dialog");
  await expect(dialog.getByTestId("release-channel")).toHaveValue("production");
  await expect(dialog.getByTestId("release-diff")).toContainText("First release of this channel");
  await expect(dialog.getByTestId("release-tests-status")).toHaveAttribute("data-status", "none");
  await expect(dialog.getByTestId("release-tests-status")).toContainText("Not run on v1 yet");
  await dialog.getByTestId("release-notes").fill("Blue sky");
  await dialog.getByTestId("release-submit").click();
  await expect(dialog).toBeHidden();
  await expect(badge(page, "production")).toHaveAttribute("data-version", "1");
  await expect(badge(page, "production")).toHaveText("productionv1");

  // v2 says red, its tool held at a gate: Release runs the suite, shown live, and it fails.
  const red = getSkySpec(id, "The sky is red.");
  await saveVersion(page, request, gates.gate(red), 1);
  await page.getByTestId("release-open").click();
  await expect(dialog.getByTestId("release-diff")).toHaveAttribute("data-from", "1");
  await expect(dialog.getByTestId("release-diff")).toContainText("What changes for production");
  await expect(dialog.getByTestId("release-diff")).toContainText("answer_colour");
  await expect(dialog.getByTestId("release-diff")).toContainText("impl.kind");
  await dialog.getByTestId("release-submit").click();
  const tests = dialog.getByTestId("release-tests-status");
  await expect(tests).toHaveAttribute("data-status", "running");
  await expect(tests).toContainText("on v2");
  await expect(dialog.getByTestId("release-submit")).toBeDisabled();
  await gates.open("answer_colour");
  await expect(tests).toHaveAttribute("data-status", "failed");
  await expect(tests).toContainText("Failed 1 of 1 case on v2");
  const failing = tests.getByTestId("release-failing-case");
  await expect(failing).toContainText("says the sky is blue");
  await expect(failing).toContainText('The answer does not contain "blue".');
  await expect(dialog.getByTestId("release-refusal")).toContainText("Not released: v2 failed 1 test case");
  await expect(dialog.getByTestId("release-submit")).toBeDisabled();
  await expect(dialog.getByTestId("release-blocked-reason")).toContainText("The tests fail on v2");
  // the server has no token here, so everyone is its local admin: Release anyway is offered, with a reason
  await expect(dialog.getByTestId("release-override")).toBeVisible();
  await expect(dialog.getByTestId("release-override-submit")).toBeDisabled();
  await attachScreenshot(page, testInfo, "releases-dialog-blocked");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(badge(page, "production")).toHaveAttribute("data-version", "1");

  // v3 fixes it: released to staging first (its gate passes), then to production, whose dialog says so.
  await saveVersion(page, request, getSkySpec(id, "The sky is blue again."), 2);
  await page.getByTestId("release-open").click();
  await dialog.getByTestId("release-channel").fill("Staging!");
  await expect(dialog).toContainText('"Staging!" is not a channel name');
  await expect(dialog.getByTestId("release-submit")).toBeDisabled();
  await dialog.getByTestId("release-channel").fill("staging");
  await expect(dialog.getByTestId("release-diff")).toContainText("First release of this channel");
  await dialog.getByTestId("release-submit").click();
  await expect(dialog).toBeHidden();
  await expect(badge(page, "staging")).toHaveAttribute("data-version", "3");

  await page.getByTestId("release-open").click();
  await expect(dialog.getByTestId("release-channel")).toHaveValue("production");
  await expect(dialog.getByTestId("release-diff")).toHaveAttribute("data-from", "1");
  await expect(dialog.getByTestId("release-diff")).toContainText("impl.output.answer");
  await expect(dialog.getByTestId("release-diff")).toContainText('"The sky is blue again."');
  await expect(tests).toHaveAttribute("data-status", "passed");
  await expect(tests).toContainText("Passed 1 of 1 case on v3");
  await expect(dialog.getByTestId("release-shadow")).toBeVisible();
  await dialog.getByTestId("release-notes").fill("Fixed the colour");
  await expect(dialog.getByTestId("release-submit")).toBeEnabled();
  await attachScreenshot(page, testInfo, "releases-dialog-passing");
  await dialog.getByTestId("release-submit").click();
  await expect(dialog).toBeHidden();
  await expect(badge(page, "production")).toHaveAttribute("data-version", "3");
  await attachScreenshot(page, testInfo, "releases-header-badges");

  // v4 says green and is not released: the designer's Run runs it, outside callers get production (v3).
  await saveVersion(page, request, getSkySpec(id, "The sky is green."), 3);
  await expect(badge(page, "production")).toHaveAttribute("data-version", "3");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-target-label")).toHaveText("Runs v4 (latest save) · production is v3");
  const designerRun = await startRunFromDesigner(page, QUERY);
  const ranLatest = await waitForRunStatus(request, designerRun, "finished");
  expect(ranLatest.agentVersion).toBe(4);
  await expect(page.getByTestId("run-answer")).toContainText("The sky is green.");
  const served = await askOverV1(baseURL!, id);
  expect(served.answer).toBe("The sky is blue again.");
  expect(await getRun(request, served.runId)).toMatchObject({ agentVersion: 3, channel: "production" });

  // A shadow comparison of v4 on what production served (that /v1 call): its tool call is answered from the
  // recording, never run, so v4 takes the same path to the same answer.
  await page.getByTestId("release-open").click();
  await expect(dialog.getByTestId("release-diff")).toHaveAttribute("data-from", "3");
  const shadow = dialog.getByTestId("release-shadow");
  await expect(shadow).toContainText("No shadow report yet for v4");
  await shadow.getByTestId("release-shadow-run").click();
  await expect(shadow).toContainText("v4 against production (v3) · 1 case");
  await expect(shadow).toContainText("1 of 1 same tools · 1 same answer · 0 calls not recorded");
  await expect(shadow.getByTestId("release-shadow-attach")).toBeChecked();
  await shadow.getByRole("button", { name: "Show the case" }).click();
  await expect(shadow.getByTestId("release-shadow-cases")).toContainText("same tools");
  await expect(shadow.getByTestId("release-shadow-cases")).toContainText("The sky is blue again.");
  await shadow.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "releases-dialog-shadow");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  // The picker runs what a channel serves, or one version, and says so.
  const picker = page.getByTestId("run-target-picker");
  await picker.selectOption("channel:staging");
  await expect(page.getByTestId("run-target-label")).toHaveText("Runs staging (v3) · production is v3");
  await attachScreenshot(page, testInfo, "releases-run-target-picker");
  const stagingRun = await startRunFromDesigner(page, QUERY);
  expect(await waitForRunStatus(request, stagingRun, "finished")).toMatchObject({
    agentVersion: 3,
    channel: "staging",
  });
  await picker.selectOption("version:1");
  await expect(page.getByTestId("run-target-label")).toHaveText("Runs v1 · production is v3");
  const pinnedRun = await startRunFromDesigner(page, QUERY);
  expect(getAnswer(await waitForRunStatus(request, pinnedRun, "finished"))).toBe("The sky is blue.");

  // A new chat starts on the same choice, said in the Chat tab: here production, which keeps v3 for the chat.
  await picker.selectOption("channel:production");
  await page.getByTestId("chat-tab").click();
  await expect(page.getByTestId("run-target-label")).toHaveText("New chats run production (v3)");
  await page.getByTestId("chat-new").click();
  await page.getByTestId("chat-input").fill(QUERY);
  await page.getByTestId("chat-send").click();
  const meta = page.getByTestId("chat-meta");
  await expect(meta).toContainText("v3");
  const session = await request.get(`/api/sessions/${await meta.getAttribute("data-session-id")}`);
  expect(await session.json()).toMatchObject({ agentVersion: 3, channel: "production" });
  await expect(page.locator("[data-testid='chat-turn'][data-turn='1']")).toContainText(
    "The sky is blue again.",
  );
  await attachScreenshot(page, testInfo, "releases-chat-target");
  await page.getByTestId("chat-back").click();
  await page.getByTestId("run-target-picker").selectOption("latest");
  await expect(page.getByTestId("run-target-label")).toHaveText(
    "New chats run v4 (latest save) · production is v3",
  );
  await page.getByTestId("back-to-editing").click();

  // Version history: what v4 changed since v3, field by field.
  await page.getByTestId("command-versions").click();
  const versions = page.getByTestId("versions-dialog");
  await versions.getByTestId("version-4").locator(".list-main").click();
  const diff = versions.getByTestId("version-diff");
  await expect(diff).toHaveAttribute("data-from", "3");
  await expect(diff).toContainText("Tools: 1 changed");
  await expect(diff).toContainText('"The sky is blue again."');
  await expect(diff).toContainText('"The sky is green."');
  await attachScreenshot(page, testInfo, "releases-version-diff");
  await versions.getByTestId("version-diff-base").selectOption("production");
  await expect(diff).toHaveAttribute("data-from", "3");
  await page.keyboard.press("Escape");
  await expect(versions).toBeHidden();

  // The releases list, from the production badge: its history, who, notes, what gated it; Roll back.
  await badge(page, "production").click();
  const list = page.getByTestId("releases-list");
  const production = list.locator("[data-testid='release-channel-history'][data-channel='production']");
  await expect(production.getByTestId("release-item")).toHaveCount(2);
  await expect(production.getByTestId("release-item").first()).toContainText("v3 (was v1)");
  await expect(production.getByTestId("release-item").first()).toContainText("Fixed the colour");
  await expect(production.getByTestId("release-item").first()).toContainText("Tests passed");
  await expect(production.getByTestId("release-item").last()).toContainText("first release");
  await page.getByTestId("releases-dialog").locator("select").selectOption("");
  await expect(list.getByTestId("release-channel-history")).toHaveCount(2);
  await attachScreenshot(page, testInfo, "releases-list");
  await production.getByTestId("release-rollback").click();
  await production.getByTestId("release-rollback-confirm").click();
  await expect(badge(page, "production")).toHaveAttribute("data-version", "1");
  await expect(production.getByTestId("release-item").first()).toContainText("Rolled back to v1 from v3");
  // staging had one release only: Roll back is off, and says why
  const staging = list.locator("[data-testid='release-channel-history'][data-channel='staging']");
  await expect(staging.getByTestId("release-rollback")).toBeDisabled();
  await expect(staging.getByTestId("release-rollback")).toHaveAttribute("title", /one release only/);
  // production is back at its first release: a second rollback has nowhere to go, and the server says so
  await production.getByTestId("release-rollback").click();
  await production.getByTestId("release-rollback-confirm").click();
  await expect(production.getByTestId("release-rollback-error")).toContainText(
    "production has no earlier release to go back to.",
  );
  await expect(badge(page, "production")).toHaveAttribute("data-version", "1");
  await attachScreenshot(page, testInfo, "releases-list-rolled-back");
  await page.keyboard.press("Escape");

  expect((await askOverV1(baseURL!, id)).answer).toBe("The sky is blue.");
});
