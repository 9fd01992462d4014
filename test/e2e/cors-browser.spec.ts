import { createReadStream, existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
// Plain Playwright: the refused cross-origin fetch below is the point, not a page fault to report.
import { expect, test } from "@playwright/test";
import { startServer } from "./designer-helpers.js";

const OPENAI_DIR = path.resolve("node_modules/openai");

/**
 * A page on another origin that loads the real openai-node (its ESM build, straight from node_modules) in
 * Chromium: what a web app calling Waddle's `/v1` from the browser does.
 */
async function startAppOrigin(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/") {
      response.setHeader("content-type", "text/html");
      response.end("<!doctype html><title>web app</title><p>web app</p>");
      return;
    }
    const file = path.join(OPENAI_DIR, path.normalize(url.pathname.replace(/^\/openai\//, "")));
    if (!url.pathname.startsWith("/openai/") || !file.startsWith(OPENAI_DIR) || !existsSync(file)) {
      response.statusCode = 404;
      response.end();
      return;
    }
    response.setHeader("content-type", "text/javascript");
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test("a web app on WADDLE_CORS_ORIGIN calls /v1 with openai-node from Chromium and reads the run id", async ({
  page,
}) => {
  const app = await startAppOrigin();
  const waddle = await startServer({ WADDLE_CORS_ORIGIN: app.origin });
  try {
    await page.goto(`${app.origin}/`);
    const result = await page.evaluate(async (baseURL) => {
      const { default: OpenAI } = (await import("/openai/index.mjs" as string)) as {
        default: new (options: Record<string, unknown>) => {
          chat: {
            completions: {
              create(body: Record<string, unknown>): {
                withResponse(): Promise<{
                  data: { choices: { message: { content: string } }[] };
                  response: Response;
                }>;
              };
            };
          };
        };
      };
      const client = new OpenAI({ baseURL, apiKey: "unused", dangerouslyAllowBrowser: true, maxRetries: 0 });
      const { data, response } = await client.chat.completions
        .create({
          model: "support-triage",
          messages: [{ role: "user", content: "My card was charged twice, order 1042" }],
        })
        .withResponse();
      // A cross-origin fetch sees only the headers the server exposes.
      return {
        answer: data.choices[0]?.message.content ?? "",
        runId: response.headers.get("x-waddle-run-id"),
      };
    }, `${waddle.url}/v1`);
    expect(result.answer.length).toBeGreaterThan(0);
    expect(result.runId).toMatch(/^run_/);

    // Another origin is refused by the browser itself: no CORS header comes back for it.
    const other = await startAppOrigin();
    try {
      await page.goto(`${other.origin}/`);
      const refused = await page.evaluate(async (url) => {
        try {
          await fetch(url, { headers: { "x-stainless-retry-count": "0" } });
          return "answered";
        } catch {
          return "blocked";
        }
      }, `${waddle.url}/v1/models`);
      expect(refused).toBe("blocked");
    } finally {
      await other.close();
    }
  } finally {
    await waddle.stop();
    await app.close();
  }
});
