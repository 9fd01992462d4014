import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startLlmFixture } from "./llm-fixture.js";

/**
 * Starts the built server (`server/dist/main.js`) on a free port with a fresh data directory and the
 * offline model, and publishes its URL as `WADDLE_E2E_URL` for the specs. Beside it runs the local
 * OpenAI-compatible fixture (`llm-fixture.ts`), which the server allows as an LLM endpoint: agents run
 * offline unless their `llm` names the fixture. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const llmFixture = await startLlmFixture();
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-e2e-"));
  const child = spawn(process.execPath, ["server/dist/main.js"], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      WADDLE_DATA_DIR: dataDir,
      WADDLE_TOKEN: "",
      OPENAI_API_KEY: "",
      NODE_ENV: "production",
      ...llmFixture.serverEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/i.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace(/\/$/, ""));
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code}:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await llmFixture.close();
    throw error;
  });
  process.env.WADDLE_E2E_URL = url;
  process.env.WADDLE_E2E_DATA_DIR = dataDir;
  process.env.WADDLE_E2E_LLM_BASE_URL = llmFixture.baseURL;
  process.env.WADDLE_E2E_LLM_CONTROL_URL = llmFixture.controlURL;
  return async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
    await llmFixture.close();
  };
}
