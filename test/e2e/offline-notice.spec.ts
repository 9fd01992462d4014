import { expect, test } from "./fixtures.js";
import { attachScreenshot, createAgent, getChainSpec, getUniqueId, openAgent } from "./runs-helpers.js";

test("the run panel says once, plainly, that the offline model is not an LLM, and links to Credentials", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("offline-note");
  const other = getUniqueId("offline-note-other");
  for (const agentId of [id, other])
    await createAgent(request, getChainSpec({ id: agentId, tools: ["look_up", "summarize"], latencyMs: 0 }));

  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  const notice = page.getByTestId("run-offline-notice");
  await expect(notice).toHaveText(
    "The offline model composes answers from this agent's tools; it is not an LLM. Add a credential to use a real model.",
  );
  await expect(page.getByTestId("run-model")).toContainText("Offline model");
  await attachScreenshot(page, testInfo, "run-panel-offline-notice");

  // The link opens the Credentials page with an LLM credential's form ready.
  await page.getByTestId("run-offline-notice-credentials").click();
  await expect(page.getByTestId("credentials-page")).toBeVisible();
  await expect(page.getByTestId("credential-form")).toBeVisible();
  await expect(page.getByTestId("credential-name")).toHaveValue("OPENAI_API_KEY");
  await page.getByTestId("credentials-close").click();
  await expect(page).toHaveURL(new RegExp(`#/agents/${id}$`));

  // Dismissed, it stays away for this agent, across a reload, and still shows for another.
  await page.getByTestId("run-button").click();
  await page.getByTestId("run-offline-notice-dismiss").click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("save-status")).toHaveText(/^Saved · v\d+$/);
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-model")).toHaveAttribute("data-checked", "true");
  await expect(notice).toHaveCount(0);
  await openAgent(page, other);
  await page.getByTestId("run-button").click();
  await expect(notice).toBeVisible();
});
