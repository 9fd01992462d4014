import { fixtureReply } from "@waddle/planner/testing";
import { expect, test } from "./fixtures.js";
import { getFixtureStats, LLM_FIXTURE_KEY, scriptFixture } from "./llm-fixture.js";
import {
  attachScreenshot,
  createAgent,
  getAnswer,
  getUniqueId,
  openAgent,
  startRunFromDesigner,
  waitForRunStatus,
} from "./runs-helpers.js";

const ANSWER = "Order 1042 is in transit and should arrive on Thursday.";

test("an LLM credential added on the Credentials page runs the agent on the fixture, with no restart", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("cred-orders");
  const credential = `E2E_${id.replace(/[^a-z0-9]/g, "_").toUpperCase()}`.slice(0, 64);
  const baseURL = process.env.WADDLE_E2E_LLM_BASE_URL!;
  await createAgent(request, {
    version: 1,
    id,
    name: "Orders with a stored key",
    llm: { provider: "openai", model: "fixture-model", credential },
    tools: [
      {
        name: "lookup_order",
        desc: "Find an order by its number.",
        argsSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
        impl: { kind: "mock", output: { status: "in transit", eta: "Thursday" } },
      },
    ],
  });

  // Before Run: the panel says in plain words that the model cannot be used, and Run waits for a fix.
  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  const warning = page.getByTestId("run-llm-warning");
  await expect(warning).toContainText(`There is no LLM credential named ${credential} on this server.`);
  await expect(page.getByTestId("run-start")).toBeDisabled();
  await expect(page.getByTestId("run-offline")).toHaveText("Run on the offline model instead");
  await page.getByTestId("run-query").fill("Where is order 1042?");
  await attachScreenshot(page, testInfo, "credentials-run-warning");
  // The fix link opens the Credentials page with the credential's name filled in.
  await page.getByTestId("run-llm-fix").click();
  await expect(page.getByTestId("credentials-page")).toBeVisible();
  await expect(page).toHaveURL(/#\/settings\/credentials\?add-llm=/);
  await expect(page.getByTestId("credential-name")).toHaveValue(credential);
  await page.getByRole("button", { name: "Cancel" }).click();

  // Through the toolbar, as a person who knows where credentials live.
  await page.getByTestId("credentials-close").click();
  await expect(page.getByTestId("canvas")).toBeVisible();
  await page.getByTestId("settings-menu").click();
  await page.getByTestId("open-credentials").click();
  await expect(page.getByTestId("credentials-page")).toBeVisible();
  await page.getByTestId("credential-add").click();
  await page.getByTestId("credential-kind-llm").check();
  await page.getByTestId("credential-name").fill(credential);
  await page.getByTestId("credential-base-url").fill(baseURL);
  await page.getByTestId("credential-value").fill(LLM_FIXTURE_KEY);
  await page.getByTestId("credential-models").fill("fixture-model");
  await attachScreenshot(page, testInfo, "credentials-add-form");
  await page.getByTestId("credential-save").click();
  const item = page.locator(`[data-testid="credential-item"][data-name="${credential}"]`);
  await expect(item).toContainText(`••••${LLM_FIXTURE_KEY.slice(-4)}`);
  await expect(item).toContainText(new URL(baseURL).host);
  await expect(page.getByTestId("credentials-page")).not.toContainText(LLM_FIXTURE_KEY);
  // Its endpoint shows on the LLM allow-list, put there by the credential.
  await expect(page.getByTestId("allow-list-llm")).toContainText(new URL(baseURL).origin);
  await attachScreenshot(page, testInfo, "credentials-page");
  const listed = await request.get("/api/credentials");
  expect(await listed.text()).not.toContain(LLM_FIXTURE_KEY);

  // Back to the agent: the warning is gone and the same server, never restarted, runs it on the fixture.
  await page.getByTestId("credentials-close").click();
  await expect(page).toHaveURL(new RegExp(`#/agents/${id}$`));
  await expect(page.getByTestId("run-model")).toHaveAttribute("data-checked", "true");
  await expect(page.getByTestId("run-model")).toHaveText(`Runs on fixture-model @ ${new URL(baseURL).host}`);
  await expect(page.getByTestId("run-llm-warning")).toHaveCount(0);
  await scriptFixture([
    fixtureReply.json({ next_node: "lookup_order", args: { order: "1042" } }),
    fixtureReply.finalAnswer(ANSWER),
  ]);
  const before = await getFixtureStats();
  const runId = await startRunFromDesigner(page, "Where is order 1042?");
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
  await expect(page.getByTestId("run-ran-model")).toHaveText("openai · fixture-model");
  const run = await waitForRunStatus(request, runId, "finished");
  expect(run.offline).toBe(false);
  expect(getAnswer(run)).toBe(ANSWER);
  const after = await getFixtureStats();
  expect(after.answered - before.answered).toBe(2);
});

test("the offline model is a visible choice, and the run header says it ran instead", async ({
  page,
  request,
}) => {
  const id = getUniqueId("cred-offline");
  await createAgent(request, {
    version: 1,
    id,
    name: "Needs a key it does not have",
    llm: { provider: "openai", model: "gpt-4o-mini", credential: "E2E_NEVER_STORED" },
    tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
  });
  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-llm-warning")).toBeVisible();
  await page.getByTestId("run-query").fill("Look it up");
  await page.getByTestId("run-offline").click();
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
  await expect(page.getByTestId("run-ran-model")).toHaveText("Offline model instead of gpt-4o-mini");
  await expect(page.getByTestId("run-ran-model")).toHaveAttribute("title", /You chose it for this run/);
  await expect(page.getByTestId("run-llm-warning")).toBeVisible();
  const runId = await page.getByTestId("run-summary").getAttribute("data-run-id");
  const run = await waitForRunStatus(request, runId!, "finished");
  expect(run).toMatchObject({ offline: true, offlineChosen: true });
});

test("an allow-list entry that is not a host is refused on the page, saying why", async ({ page }) => {
  await page.goto("/#/settings/credentials");
  await expect(page.getByTestId("credentials-page")).toBeVisible();
  await page.getByTestId("allow-input-http").fill("https://api.example.com/v1");
  await page.getByTestId("allow-add-http").click();
  await expect(page.getByTestId("allow-list-http").getByRole("alert")).toContainText(
    "give the host without a scheme (api.example.com)",
  );
  const host = `${getUniqueId("h")}.example.com`;
  await page.getByTestId("allow-input-http").fill(host);
  await page.getByTestId("allow-add-http").click();
  await expect(
    page.getByTestId("allow-list-http").getByTestId("allow-entry").filter({ hasText: host }),
  ).toContainText("added here");
  await page.getByRole("button", { name: `Remove ${host}` }).click();
  await expect(page.getByTestId("allow-list-http")).not.toContainText(host);
});

test("an http tool whose host is not allowed offers Allow host…, which fills the page for a person to add it", async ({
  page,
  request,
}) => {
  const id = getUniqueId("cred-host");
  const port = 1024 + Math.floor(Math.random() * 60_000);
  await createAgent(request, {
    version: 1,
    id,
    name: "Calls a local API",
    tools: [
      { name: "local_api", desc: "Calls it", impl: { kind: "http", url: `http://127.0.0.1:${port}/x` } },
    ],
  });
  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  const hostWarning = page.getByTestId("run-host-warning");
  await expect(hostWarning).toContainText(
    `calls 127.0.0.1:${port}, which is not on this server's http allow-list`,
  );
  // The offline model is the agent's own choice here: Run is not held back by a tool's host.
  await expect(page.getByTestId("run-offline")).toHaveCount(0);
  await hostWarning.getByTestId("allow-host").click();
  await expect(page.getByTestId("credentials-page")).toBeVisible();
  await expect(page.getByTestId("allow-input-http")).toHaveValue(`127.0.0.1:${port}`);
  await expect(page.getByTestId("allow-input-http")).toBeFocused();
  await page.getByTestId("allow-add-http").click();
  await expect(page.getByTestId("allow-list-http")).toContainText("added here");
  await page.getByTestId("credentials-close").click();
  await page.getByTestId("run-button").click();
  // Once the server has answered the new check (a remounted panel starts without one):
  await expect(page.getByTestId("run-model")).toHaveAttribute("data-checked", "true");
  await expect(page.getByTestId("run-host-warning")).toHaveCount(0);
  // Leave the shared server's list as it was.
  const lists = await (await request.get("/api/allowlist")).json();
  const stored = (list: { entry: string; source: string }[]) =>
    list.filter((entry) => entry.source === "stored").map((entry) => entry.entry);
  await request.put("/api/allowlist", {
    data: {
      http: stored(lists.http).filter((entry) => entry !== `127.0.0.1:${port}`),
      llm: stored(lists.llm),
    },
  });
});
