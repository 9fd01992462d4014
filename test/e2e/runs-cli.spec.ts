import { spawn } from "node:child_process";
import path from "node:path";
import { expect, test } from "./fixtures.js";
import { toolNode } from "./designer-helpers.js";
import { createAgent, getChainSpec, getUniqueId, openAgent, waitForRunStatus } from "./runs-helpers.js";
import { createGates } from "./gates.js";

const ROOT = path.join(import.meta.dirname, "../..");

/** `waddle run <agent> <query> --server <url>` as a user types it; resolves the run id it printed. */
function startCliRun(options: { agentId: string; query: string; server: string }) {
  const child = spawn(
    process.execPath,
    ["apps/cli/bin/waddle.mjs", "run", options.agentId, options.query, "--server", options.server],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const runId = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^run (run_[A-Za-z0-9_-]+) on /m.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`the CLI exited (${code}) before starting a run:\n${output}`)),
    );
  });
  const exitCode = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { runId, exitCode, getOutput: () => output, kill: () => child.kill("SIGTERM") };
}

test("a run started by the CLI against the server shows up live in the run history and can be watched", async ({
  page,
  request,
  baseURL,
}) => {
  const tools = ["gather", "check", "report"] as const;
  const id = getUniqueId("cli-chain");
  // every step waits at its gate, so the run is still going when the page looks at it and opens it
  const gates = createGates("cli-chain");
  await createAgent(request, gates.gate(getChainSpec({ id, tools, latencyMs: 0 })));
  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  await page.getByTestId("run-tab-history").click();
  const history = page.getByTestId("run-history");
  await expect(history).toBeVisible();
  await expect(history.getByTestId("run-history-item")).toHaveCount(0);

  const cli = startCliRun({ agentId: id, query: "Report from the command line", server: baseURL! });
  try {
    const runId = await cli.runId;
    // the page learns of the run from the server alone: no reload, no click
    const item = history.locator(`[data-testid='run-history-item'][data-run-id='${runId}']`);
    await expect(item).toBeVisible({ timeout: 20_000 });
    await expect(item).toContainText("Report from the command line");
    await expect(item).toHaveAttribute("data-status", /queued|running/);

    // opened while it runs, it plays live on the canvas and ends as the CLI saw it end
    await item.getByRole("button", { name: /^Watch run/ }).click();
    await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", runId);
    await expect(page).toHaveURL(new RegExp(`#/agents/${id}/runs/${runId}$`));
    // opened while gather runs; the test lets each step go once the canvas shows it running
    for (const tool of tools) {
      await expect(toolNode(page, tool)).toHaveAttribute("data-run-state", "running", { timeout: 20_000 });
      await expect(page.locator("[data-run-state='running']")).toHaveCount(1);
      await gates.open(tool);
    }
    await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
    for (const tool of tools)
      await expect(toolNode(page, tool)).toHaveAttribute("data-run-state", "succeeded");
    expect(await cli.exitCode, cli.getOutput()).toBe(0);
    expect(cli.getOutput()).toContain("answer_complete");
    await waitForRunStatus(request, runId, "finished");

    await page.getByTestId("run-tab-history").click();
    await expect(item).toHaveAttribute("data-status", "finished");
  } finally {
    await gates.openAll();
    cli.kill();
  }
});
