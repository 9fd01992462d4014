import { expect, test } from "./fixtures.js";
import { LLM_FIXTURE_KEY } from "./llm-fixture.js";
import { attachScreenshot, createAgent, getUniqueId, openAgent } from "./runs-helpers.js";

test("Test connection lists the fixture's models, says why a wrong key fails, and the Model field offers them", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("test-connection");
  const name = `E2E_${id.replace(/[^a-z0-9]/g, "_").toUpperCase()}`.slice(0, 60);
  const wrong = `${name}_BAD`;
  const baseUrl = process.env.WADDLE_E2E_LLM_BASE_URL!;
  for (const [credential, value] of [
    [name, LLM_FIXTURE_KEY],
    [wrong, "sk-not-the-fixture-key-0000"],
  ] as const) {
    const put = await request.put(`/api/credentials/${credential}`, {
      data: { kind: "llm", value, baseUrl },
    });
    expect(put.status(), await put.text()).toBe(200);
  }
  await createAgent(request, {
    version: 1,
    id,
    name: "Orders on a tested endpoint",
    llm: { provider: "openai", model: "fixture-model", credential: name },
    tools: [{ name: "lookup_order", desc: "Find an order.", impl: { kind: "mock", output: { ok: true } } }],
  });

  await page.goto("/#/settings/credentials");
  await expect(page.getByTestId("credentials-page")).toBeVisible();
  const item = page.locator(`[data-testid="credential-item"][data-name="${name}"]`);
  await item.getByTestId("credential-test").click();
  const result = item.getByTestId("credential-test-result");
  await expect(result).toHaveAttribute("data-ok", "true");
  await expect(result).toContainText(`Connected to ${new URL(baseUrl).host}: 1 model (fixture-model).`);
  await expect(page.getByTestId("credentials-page")).not.toContainText(LLM_FIXTURE_KEY);

  const refused = page.locator(`[data-testid="credential-item"][data-name="${wrong}"]`);
  await refused.getByTestId("credential-test").click();
  const failure = refused.getByTestId("credential-test-result");
  await expect(failure).toHaveAttribute("data-code", "key_refused");
  await expect(failure).toContainText("The endpoint refused the key (HTTP 401)");
  await item.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "credentials-test-connection");

  // The agent's Model field offers the models its credential's endpoint lists.
  await openAgent(page, id);
  await page.getByTestId("tab-settings").click();
  const model = page.getByTestId("llm-settings").getByTestId("llm-model");
  await model.focus();
  await expect(model).toHaveAttribute("data-models", "1");
  await expect(page.getByTestId("llm-settings").locator("datalist option")).toHaveAttribute(
    "value",
    "fixture-model",
  );
  await expect(page.getByTestId("llm-settings")).toContainText(
    "1 model listed by the credential's endpoint.",
  );
  await attachScreenshot(page, testInfo, "model-field-offers-models");
});
