import type { Locator, Page } from "@playwright/test";
import { fixtureReply } from "@waddle/planner/testing";
import { expect, test } from "./fixtures.js";
import { toolNode } from "./designer-helpers.js";
import { getFixtureLlm, scriptFixture } from "./llm-fixture.js";
import {
  attachScreenshot,
  createAgent,
  getRunEvents,
  getUniqueId,
  openAgent,
  startRunFromDesigner,
} from "./runs-helpers.js";

const CONTACT = "Reach Ana at ana@example.com, card 4111 1111 1111 1111";
/** What the pii check found in CONTACT, in the order the check reports the kinds. */
const FOUND = /(1 email, 1 card|1 card, 1 email)/;

/** Scrolls the run timeline (a virtual list: rows out of view are not rendered) to its top or its end. */
async function scrollTimeline(page: Page, to: "top" | "end"): Promise<void> {
  await page.getByTestId("run-timeline").evaluate((element, where) => {
    element.scrollTop = where === "top" ? 0 : element.scrollHeight;
    element.dispatchEvent(new Event("scroll"));
  }, to);
}

/** A line of text shows whole: nothing of it is cut off or hidden by an ellipsis. */
async function expectNotCutOff(line: Locator): Promise<void> {
  const sizes = await line.evaluate((element) => ({
    scroll: element.scrollWidth,
    client: element.clientWidth,
  }));
  expect(sizes.scroll, "the text is wider than its box: it is cut off").toBeLessThanOrEqual(sizes.client);
}

test("a PII guard and a stuck tool on the canvas: the shield, the stuck mark, the timeline, and the Guards settings' live sample", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("guarded-desk");
  await createAgent(request, {
    version: 1,
    id,
    name: "Support desk, guarded",
    llm: getFixtureLlm(),
    planner: { stuck: { enabled: true, repeats: 3, action: "finish" } },
    guards: [
      {
        name: "pii",
        on: "tool_result",
        check: { kind: "pii" },
        action: "redact",
        tools: ["lookup_contact"],
      },
    ],
    tools: [
      {
        name: "lookup_contact",
        desc: "Finds how to reach a customer.",
        sideEffects: "read",
        argsSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
        impl: { kind: "mock", latencyMs: 10, output: { contact: CONTACT } },
      },
      {
        name: "search_docs",
        desc: "Searches the docs.",
        sideEffects: "read",
        argsSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
        impl: { kind: "mock", latencyMs: 10, output: { hits: ["Refunds take 5 days."] } },
      },
    ],
  });
  const search = fixtureReply.json({ next_node: "search_docs", args: { q: "refund" } });
  await scriptFixture([
    fixtureReply.json({ next_node: "lookup_contact", args: { who: "Ana" } }),
    search,
    search,
    search,
    fixtureReply.finalAnswer("Ana can be reached; refunds take 5 days."),
  ]);

  await openAgent(page, id);
  const runId = await startRunFromDesigner(page, "How do I reach Ana about her refund?");
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });

  // The model never saw the contact: the result it got was masked, and no event holds the original.
  const events = await getRunEvents(request, runId);
  const stored = JSON.stringify(events);
  expect(stored).not.toContain("ana@example.com");
  expect(stored).not.toContain("4111 1111 1111 1111");
  expect(stored).toContain("[email]");

  // The canvas: a shield on the guarded tool, the stuck mark on the looping one.
  const shield = toolNode(page, "lookup_contact").getByTestId("guard-shield");
  await expect(shield).toHaveAttribute("data-verdict", "fail");
  await expect(shield).toHaveAttribute("data-action", "redact");
  await expect(shield).toHaveAttribute(
    "title",
    new RegExp(`Guard pii redacted ${FOUND.source} in lookup_contact's result`),
  );
  await expect(shield).toHaveText("redacted");
  await expect(toolNode(page, "search_docs").getByTestId("guard-shield")).toHaveCount(0);
  await expect(toolNode(page, "search_docs").getByTestId("node-run-stuck")).toHaveText("stuck");
  await expect(toolNode(page, "lookup_contact").getByTestId("node-run-stuck")).toHaveCount(0);

  // The timeline explains both, in lines that wrap rather than being cut off.
  // the guard decided on the first step's result; the stuck line is near the end
  await page.getByTestId("run-timeline").scrollIntoViewIfNeeded();
  await scrollTimeline(page, "top");
  const guardLine = page.locator("[data-testid='run-timeline-entry'][data-kind='guard']");
  await expect(guardLine).toHaveCount(1);
  await expect(guardLine).toContainText(
    new RegExp(`Guard pii redacted ${FOUND.source} in lookup_contact's result`),
  );
  await expect(guardLine).toHaveAttribute("data-tool", "lookup_contact");
  await expectNotCutOff(guardLine.locator(".timeline-title"));
  await attachScreenshot(page, testInfo, "guards-run-timeline");
  await scrollTimeline(page, "end");
  const stuckLine = page.locator("[data-testid='run-timeline-entry'][data-kind='stuck']");
  await expect(stuckLine).toContainText(
    "Stuck: search_docs called 3 times with the same arguments → finished with the best answer so far",
  );
  await expectNotCutOff(stuckLine.locator(".timeline-title"));
  await attachScreenshot(page, testInfo, "guards-run");

  // Back to editing: Settings → Guards holds the guard, and its sample box runs the check live.
  await page.getByTestId("run-panel-close").click();
  await page.getByTestId("tab-settings").click();
  const section = page.getByTestId("guards-section");
  await expect(section).toHaveAttribute("open", "");
  const row = section.locator("[data-testid='guard-row'][data-guard='pii']");
  await expect(row).toContainText("Personal data on lookup_contact → redact");
  await expect(row.locator("input[data-tool='lookup_contact']")).toBeChecked();
  await expect(row.locator("input[data-tool='search_docs']")).not.toBeChecked();
  await row.getByTestId("guard-sample-input").fill(CONTACT);
  const verdict = row.getByTestId("guard-sample-verdict");
  await expect(verdict).toHaveAttribute("data-verdict", "fail");
  await expect(verdict).toContainText(new RegExp(`found ${FOUND.source}`));
  const redacted = row.getByTestId("guard-sample-redacted");
  await expect(redacted).toContainText("[email]");
  await expect(redacted).toContainText("[card]");
  await expect(redacted).not.toContainText("ana@example.com");
  await row.getByTestId("guard-sample-input").fill("Refunds take 5 days.");
  await expect(verdict).toHaveAttribute("data-verdict", "pass");
  await expect(redacted).toHaveCount(0);
  await row.getByTestId("guard-sample-input").fill(CONTACT);
  await expect(verdict).toHaveAttribute("data-verdict", "fail");

  // A new guard: denied words as regular expressions; a bad one is an issue at its field, then removed.
  await section.getByTestId("guard-add-kind").selectOption("deny_words");
  await section.getByTestId("guard-add").click();
  const words = section.locator("[data-testid='guard-row'][data-guard='deny-words']");
  await expect(words).toContainText("Add at least one word.");
  await words.getByTestId("guard-1-regex").check();
  await words.getByTestId("guard-1-words").fill("internal[- ]only\n(open");
  await expect(words.getByTestId("guard-issues")).toContainText('"(open" is not a valid regular expression');
  await expect(words.getByTestId("guard-issues")).toContainText("$.guards[1].check.words[1]");
  await words.getByTestId("guard-issues").scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "guards-settings-issue");
  await expect(words.getByTestId("guard-1-action").locator("option[value='redact']")).toHaveCount(1);
  await words.getByTestId("guard-1-kind").selectOption("llm");
  await expect(words.getByTestId("guard-1-action").locator("option[value='redact']")).toHaveCount(0);
  await words.getByTestId("guard-remove").click();
  await expect(section.getByTestId("guard-row")).toHaveCount(1);

  await section.locator("summary").scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "guards-settings");
  await row.getByTestId("guard-sample-redacted").scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "guards-settings-sample");
});
