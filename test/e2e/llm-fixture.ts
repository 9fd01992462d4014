import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startOpenAiFixtureServer, type FixtureReply, type FixtureRequest } from "@waddle/planner/testing";

/**
 * The local OpenAI-compatible endpoint of the e2e stack. Global setup starts the planner's fixture server
 * (the real `openai` client in the server talks to it) and, beside it, a small control server through which
 * specs, in their own worker processes, script its next replies. The e2e server allows the fixture's origin
 * (WADDLE_LLM_ALLOW) and its key's variable (WADDLE_LLM_KEY_ENVS), so an agent whose `llm` names
 * `getFixtureLlm()` runs on it.
 */

/** The variable holding the fixture's API key, in the e2e server's environment. */
export const LLM_FIXTURE_KEY_ENV = "E2E_FIXTURE_LLM_KEY";
/** The key the fixture wants (a spec types it into the Credentials page). */
export const LLM_FIXTURE_KEY = "sk-e2e-fixture-0123456789";

export interface LlmFixture {
  /** `http://127.0.0.1:<port>/v1`, for an agent's `llm.baseUrl`. */
  baseURL: string;
  /** The control server: `POST /replies` scripts, `DELETE /replies` clears, `GET /stats` counts. */
  controlURL: string;
  /** Environment for the server under test: the allow-list and the key. */
  serverEnv: Record<string, string>;
  close(): Promise<void>;
}

/** Starts the fixture and its control server (global setup). */
export async function startLlmFixture(): Promise<LlmFixture> {
  const script: FixtureReply[] = [];
  let answered = 0;
  const fixture = await startOpenAiFixtureServer({
    apiKey: LLM_FIXTURE_KEY,
    models: ["fixture-model"],
    fallback: (request: FixtureRequest) => {
      answered += 1;
      return (
        script.shift() ?? {
          kind: "http_error",
          status: 400,
          message: `The e2e fixture has no scripted reply for request ${request.index + 1}.`,
          type: "fixture_script_exhausted",
        }
      );
    },
  });
  const control = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.method === "POST" && request.url === "/replies") {
        const replies = JSON.parse(Buffer.concat(chunks).toString("utf8")) as FixtureReply[];
        script.push(...replies);
        return reply(200, { pending: script.length });
      }
      if (request.method === "DELETE" && request.url === "/replies") {
        script.length = 0;
        return reply(200, { pending: 0 });
      }
      if (request.method === "GET" && request.url === "/stats")
        return reply(200, { pending: script.length, answered });
      reply(404, { error: `no route ${request.method} ${request.url}` });
    });
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const { port } = control.address() as AddressInfo;
  return {
    baseURL: fixture.baseURL,
    controlURL: `http://127.0.0.1:${port}`,
    serverEnv: {
      WADDLE_LLM_ALLOW: new URL(fixture.baseURL).origin,
      WADDLE_LLM_KEY_ENVS: LLM_FIXTURE_KEY_ENV,
      [LLM_FIXTURE_KEY_ENV]: LLM_FIXTURE_KEY,
    },
    close: async () => {
      control.closeAllConnections();
      await new Promise<void>((resolve) => control.close(() => resolve()));
      await fixture.close();
    },
  };
}

function getEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the specs through playwright.config.ts`);
  return value;
}

/** The `llm` of an agent that runs on the fixture. */
export function getFixtureLlm(): Record<string, unknown> {
  return {
    provider: "openai",
    model: "fixture-model",
    baseUrl: getEnv("WADDLE_E2E_LLM_BASE_URL"),
    apiKeyEnv: LLM_FIXTURE_KEY_ENV,
  };
}

/** Replaces the fixture's script with these replies, answered in order by the next completions. */
export async function scriptFixture(replies: readonly FixtureReply[]): Promise<void> {
  const control = getEnv("WADDLE_E2E_LLM_CONTROL_URL");
  await fetch(`${control}/replies`, { method: "DELETE" });
  const answer = await fetch(`${control}/replies`, { method: "POST", body: JSON.stringify(replies) });
  if (!answer.ok) throw new Error(`scripting the LLM fixture failed: ${answer.status}`);
}

/** How many scripted replies are left, and how many completions the fixture answered in all. */
export async function getFixtureStats(): Promise<{ pending: number; answered: number }> {
  const answer = await fetch(`${getEnv("WADDLE_E2E_LLM_CONTROL_URL")}/stats`);
  return (await answer.json()) as { pending: number; answered: number };
}
