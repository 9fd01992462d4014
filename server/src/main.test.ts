import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnServer } from "./testing/spawn-server.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-main-banner-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the start banner", () => {
  it("says LLM keys can also be added in the browser, on the Credentials page", async () => {
    const server = await spawnServer({ env: { WADDLE_DATA_DIR: dataDir } });
    // Stopped first, so that every line it printed has arrived.
    await server.stop();
    expect(server.output()).toContain(
      `  LLM keys: from the environment (OPENAI_API_KEY), or add them in the browser: Credentials, ${server.url}/#/settings/credentials\n`,
    );
  }, 60_000);
});
