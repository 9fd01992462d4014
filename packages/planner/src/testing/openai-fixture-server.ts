import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FixtureHttpError, FixtureReply } from "./openai-fixture-replies.js";
import { fixtureReply } from "./openai-fixture-replies.js";
import {
  writeCompletion,
  writeCompletionStream,
  writeHttpError,
  type CompletionContext,
} from "./openai-fixture-writer.js";
import { parseJson } from "@waddle/protocol";

/** One request the fixture received. */
export interface FixtureRequest {
  index: number;
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, the raw text when it is not JSON, `undefined` when empty. */
  body: unknown;
  /** The HTTP status the fixture answered with (unset for a dropped connection). */
  status?: number;
  /** True once the whole response was written. */
  finished: boolean;
  /** True when the client closed the connection before the response was complete. */
  closedEarly: boolean;
  /** Resolves once the response is complete or the connection is gone. */
  settled: Promise<void>;
}

export interface OpenAiFixtureServerOptions {
  /** Replies used in order by `POST /v1/chat/completions`; `enqueue` adds more. */
  replies?: readonly FixtureReply[];
  /** Answers requests when the script is used up; by default a 400 saying so. */
  fallback?: (request: FixtureRequest) => FixtureReply;
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401. */
  apiKey?: string;
  /** Parameters this endpoint refuses with a 400 naming them, without using a scripted reply. */
  refuseParams?: readonly string[];
  /** Listed by `GET /v1/models`; the first is the default reply model. */
  models?: readonly string[];
  /** False: `GET /v1/models` answers 404, as endpoints that do not list their models do. */
  listModels?: boolean;
}

/** A running fixture: point an OpenAI client at `baseURL`. */
export interface OpenAiFixtureServer {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseURL: string;
  readonly requests: readonly FixtureRequest[];
  /** Requests to `/v1/chat/completions` only, in order. */
  readonly completionRequests: readonly FixtureRequest[];
  /** Parameters refused from now on (mutable). */
  readonly refusedParams: Set<string>;
  enqueue(...replies: FixtureReply[]): void;
  /** Scripted replies not used yet. */
  readonly pending: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Starts a local OpenAI-compatible server on 127.0.0.1 and a free port, for tests and demos: chat
 * completions streamed (SSE ending in `data: [DONE]`) or not, `GET /v1/models`, scripted replies and faults.
 */
export async function startOpenAiFixtureServer(
  options: OpenAiFixtureServerOptions = {},
): Promise<OpenAiFixtureServer> {
  const script: FixtureReply[] = [...(options.replies ?? [])];
  const requests: FixtureRequest[] = [];
  const refusedParams = new Set(options.refuseParams ?? []);
  const models = options.models?.length ? options.models : ["fixture-model"];
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const server = createServer((request, response) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) writeHttpError(response, fixtureReply.serverError(500, "fixture failure"));
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const record = await recordRequest(request, response);
    const url = new URL(record.path, "http://127.0.0.1");
    const route = `${record.method} ${url.pathname.replace(/\/+$/, "")}`;
    const answer = (reply: FixtureHttpError): void => {
      record.status = reply.status;
      writeHttpError(response, reply);
    };
    if (options.apiKey !== undefined && record.headers.authorization !== `Bearer ${options.apiKey}`) {
      return answer({
        kind: "http_error",
        status: 401,
        message: "Incorrect API key provided.",
        code: "invalid_api_key",
      });
    }
    if (route === "GET /v1/models" && options.listModels !== false) {
      record.status = 200;
      response.writeHead(200, { "content-type": "application/json" });
      const data = models.map((id) => ({ id, object: "model", created: 0, owned_by: "waddle-fixture" }));
      response.end(JSON.stringify({ object: "list", data }));
      return;
    }
    if (route !== "POST /v1/chat/completions") {
      return answer({ kind: "http_error", status: 404, message: `No route ${route} in the fixture.` });
    }
    const body = record.body;
    if (
      typeof body !== "object" ||
      body === null ||
      !Array.isArray((body as { messages?: unknown }).messages)
    ) {
      return answer({
        kind: "http_error",
        status: 400,
        message: "The body must be JSON with a messages array.",
      });
    }
    const refused = [...refusedParams].find(
      (param) => (body as Record<string, unknown>)[param] !== undefined,
    );
    if (refused !== undefined) return answer(fixtureReply.refuseParam(refused));
    const reply = script.shift() ?? options.fallback?.(record) ?? exhausted(record);
    if (reply.kind === "http_error") return answer(reply);
    if (reply.kind === "drop_connection") {
      request.socket.destroy();
      return;
    }
    record.status = 200;
    const chat = body as { model?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown } };
    const context: CompletionContext = {
      id: `chatcmpl-fixture-${record.index}`,
      model: typeof chat.model === "string" ? chat.model : (models[0] ?? "fixture-model"),
      promptChars: JSON.stringify((body as { messages: unknown }).messages).length,
      includeUsage: chat.stream_options?.include_usage === true,
      isClosed: () => record.closedEarly || response.destroyed,
      wait: (ms) => wait(ms, record),
    };
    if (chat.stream === true) await writeCompletionStream(response, reply, context);
    else await writeCompletion(response, reply, context);
  }

  function wait(ms: number, record: FixtureRequest): Promise<void> {
    if (ms <= 0 || record.closedEarly) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
      void record.settled.then(() => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve();
      });
    });
  }

  async function recordRequest(request: IncomingMessage, response: ServerResponse): Promise<FixtureRequest> {
    let settle: () => void = () => undefined;
    const record: FixtureRequest = {
      index: requests.length,
      method: request.method ?? "GET",
      path: request.url ?? "/",
      headers: Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(", ") : (value ?? ""),
        ]),
      ),
      body: undefined,
      finished: false,
      closedEarly: false,
      settled: new Promise<void>((resolve) => (settle = resolve)),
    };
    requests.push(record);
    response.on("finish", () => {
      record.finished = true;
    });
    response.on("close", () => {
      if (!response.writableFinished) record.closedEarly = true;
      settle();
    });
    record.body = await readBody(request);
    return record;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get completionRequests() {
      return requests.filter((request) => request.path.startsWith("/v1/chat/completions"));
    },
    refusedParams,
    enqueue: (...replies) => void script.push(...replies),
    get pending() {
      return script.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function exhausted(request: FixtureRequest): FixtureHttpError {
  return {
    kind: "http_error",
    status: 400,
    message: `The fixture has no scripted reply for request ${request.index + 1}; enqueue one.`,
    type: "fixture_script_exhausted",
  };
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of request) {
    const buffer = part as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) break;
    parts.push(buffer);
  }
  const text = Buffer.concat(parts).toString("utf8");
  if (text === "") return undefined;
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : text;
}
