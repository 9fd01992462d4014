import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { spawnServer } from "./testing/spawn-server.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-main-banner-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the start banner", () => {
  it("says LLM keys can also be added in the browser, on the Credentials page", async () => {
    const server = await spawnServer({ env: { WADDLE_DATA_DIR: dataDir } });
    const banner = `  LLM keys: from the environment (OPENAI_API_KEY), or add them in the browser: Credentials, ${server.url}/#/settings/credentials\n`;
    // The banner's lines come after "listening" and may reach the pipe in a later chunk: wait for this one
    // (stopping at once raced it, and a process's exit can be seen before the last chunk of its output).
    try {
      await vi.waitFor(() => expect(server.output()).toContain(banner), { timeout: 30_000, interval: 20 });
    } finally {
      await server.stop();
    }
  }, 60_000);
});
