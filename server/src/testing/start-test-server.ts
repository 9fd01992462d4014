import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createWaddleServer, type WaddleServer, type WaddleServerOptions } from "../server.js";

export interface TestServer extends WaddleServer {
  dataDir: string;
  /** fetch against the server; JSON bodies are sent with their content type. */
  request(
    pathname: string,
    init?: Omit<RequestInit, "body"> & { json?: unknown; body?: string },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test answers are read field by field
  ): Promise<{ status: number; body: any; headers: Headers; text: string }>;
  /** Closes the server and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * A real server on a free port with a fresh SQLite file, quiet logs and the example tools imported through
 * the test runner (which resolves workspace sources).
 */
export async function startTestServer(options: WaddleServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-server-test-"));
  const server = await createWaddleServer({
    port: 0,
    dataDir,
    logLevel: "silent",
    designerDir: null,
    importModule: (file) => import(/* @vite-ignore */ file),
    env: {},
    ...options,
  });
  const request: TestServer["request"] = async (pathname, init = {}) => {
    const { json, headers, ...rest } = init;
    const response = await fetch(`${server.url}${pathname}`, {
      ...rest,
      headers: {
        ...(json === undefined ? {} : { "content-type": "application/json" }),
        ...(headers as Record<string, string>),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, body, headers: response.headers, text };
  };
  return {
    ...server,
    dataDir,
    request,
    stop: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
