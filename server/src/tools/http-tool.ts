import { getPathValue, parseJson, protoSafeReviver, type HttpImpl, type ToolSpec } from "@waddle/protocol";
import type { ToolRunContext, ToolRunner } from "@waddle/planner";
import type { z } from "zod";
import type { HostAllowList } from "./host-allow-list.js";
import { requestPinned } from "./pinned-request.js";
import { resolveAllowedAddress, systemLookup, type HostLookup } from "./resolve-allowed-address.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { ToolExecutionError } from "./tool-execution-error.js";

type HttpImplConfig = z.output<typeof HttpImpl>;

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const PLACEHOLDER = /\{([A-Za-z_$][\w$]*(?:\.[\w$]+|\[\d+\])*)\}/g;
const WHOLE_PLACEHOLDER = /^\{([A-Za-z_$][\w$]*(?:\.[\w$]+|\[\d+\])*)\}$/;

export interface HttpToolOptions {
  tool: ToolSpec & { impl: HttpImplConfig };
  allowList: HostAllowList;
  /** Secret values by name (`WADDLE_SECRET_<NAME>` without the prefix). */
  secrets: Readonly<Record<string, string>>;
  redactor: SecretRedactor;
  /** How host names are resolved; the system resolver by default. */
  lookup?: HostLookup;
}

/**
 * Runs an `http` tool: fills `{name}` placeholders of the URL, query and body from the args, resolves
 * secret headers, and calls only allow-listed hosts at public addresses, or private ones the allow-list
 * names (every redirect is checked again), connecting to the address it checked. The response is read up
 * to `maxResponseBytes`; a JSON object is the observation, anything else `{status, body}`.
 */
export function createHttpToolRunner(options: HttpToolOptions): ToolRunner {
  const { tool, allowList } = options;
  const impl = tool.impl;
  const lookup = options.lookup ?? systemLookup;
  return async (args, context) => {
    let url = buildUrl(impl, args);
    const headers = resolveHeaders(impl, options.secrets);
    let method: string = impl.method;
    let body = buildBody(impl, args);
    if (body !== undefined) headers["content-type"] ??= "application/json";
    headers.accept ??= "application/json, text/plain;q=0.9, */*;q=0.5";
    const timeoutMs = impl.timeoutMs ?? tool.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
    try {
      for (let redirects = 0; ; redirects += 1) {
        const target = await resolveAllowedAddress(url, { allowList, lookup });
        const response = await requestPinned(
          url,
          { method, headers, ...(body === undefined ? {} : { body }), signal },
          target,
        );
        const location = response.headers.get("location");
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          if (redirects >= MAX_REDIRECTS)
            throw new ToolExecutionError(
              "too_many_redirects",
              `More than ${MAX_REDIRECTS} redirects from ${tool.name}.`,
            );
          const next = new URL(location, url);
          if (next.origin !== url.origin) for (const name of secretHeaderNames(impl)) delete headers[name];
          if (
            response.status === 303 ||
            ((response.status === 301 || response.status === 302) && method === "POST")
          ) {
            method = "GET";
            body = undefined;
            delete headers["content-type"];
          }
          url = next;
          continue;
        }
        return options.redactor.redact(
          await readResponse({ response, limit: impl.maxResponseBytes, toolName: tool.name }),
        );
      }
    } catch (error) {
      throw toToolError({ error, context, timeoutMs, toolName: tool.name, redactor: options.redactor });
    }
  };
}

type Encode = (text: string, path: string, offset: number) => string;

function fill(template: string, args: Record<string, unknown>, encode: Encode): string {
  return template.replace(PLACEHOLDER, (_match, path: string, offset: number) => {
    const value = getPathValue(args, path);
    if (value === undefined || value === null) {
      throw new ToolExecutionError(
        "missing_arg",
        `The URL needs "${path}", which the args do not have.`,
        false,
      );
    }
    return encode(typeof value === "string" ? value : JSON.stringify(value), path, offset);
  });
}

/**
 * `encodeURIComponent` for a URL template's values, refusing "." and ".." in its path: URL parsing would
 * resolve them (also as %2e), so an arg could move the request to another path of the allowed host, with
 * the tool's secret headers.
 */
function encodeUrlValue(template: string): Encode {
  const pathEnd = template.search(/[?#]/);
  return (text, path, offset) => {
    if ((text === "." || text === "..") && (pathEnd < 0 || offset < pathEnd)) {
      throw new ToolExecutionError(
        "invalid_arg",
        `"${path}" may not be "${text}": it would leave the path of the tool's URL.`,
        false,
      );
    }
    return encodeURIComponent(text);
  };
}

function buildUrl(impl: HttpImplConfig, args: Record<string, unknown>): URL {
  let url: URL;
  try {
    url = new URL(fill(impl.url, args, encodeUrlValue(impl.url)));
  } catch (error) {
    if (error instanceof ToolExecutionError) throw error;
    throw new ToolExecutionError("invalid_url", `"${impl.url}" does not make a valid URL with these args.`);
  }
  for (const [name, template] of Object.entries(impl.query)) {
    const whole = WHOLE_PLACEHOLDER.exec(template);
    if (whole?.[1] !== undefined) {
      const value = getPathValue(args, whole[1]);
      if (value === undefined || value === null) continue; // an optional parameter the args leave out
      url.searchParams.append(name, typeof value === "string" ? value : JSON.stringify(value));
    } else {
      url.searchParams.append(
        name,
        fill(template, args, (text) => text),
      );
    }
  }
  return url;
}

function renderBodyTemplate(template: unknown, args: Record<string, unknown>): unknown {
  if (typeof template === "string") {
    const whole = WHOLE_PLACEHOLDER.exec(template);
    if (whole?.[1] !== undefined) return getPathValue(args, whole[1]) ?? null;
    return template.replace(PLACEHOLDER, (_match, path: string) => {
      const value = getPathValue(args, path);
      return value === undefined || value === null
        ? ""
        : typeof value === "string"
          ? value
          : JSON.stringify(value);
    });
  }
  if (Array.isArray(template)) return template.map((item) => renderBodyTemplate(item, args));
  if (template !== null && typeof template === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) {
      if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
      out[key] = renderBodyTemplate(value, args);
    }
    return out;
  }
  return template;
}

function buildBody(impl: HttpImplConfig, args: Record<string, unknown>): string | undefined {
  if (impl.method === "GET" || impl.body === "none") return undefined;
  if (impl.body === "args") return impl.method === "DELETE" ? undefined : JSON.stringify(args);
  return JSON.stringify(renderBodyTemplate(impl.body, args));
}

function secretHeaderNames(impl: HttpImplConfig): string[] {
  return Object.entries(impl.headers)
    .filter(([, value]) => typeof value !== "string")
    .map(([name]) => name.toLowerCase());
}

export function resolveHeaders(
  impl: Pick<HttpImplConfig, "headers">,
  secrets: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(impl.headers)) {
    if (typeof value === "string") {
      headers[name.toLowerCase()] = value;
      continue;
    }
    const secret = Object.prototype.hasOwnProperty.call(secrets, value.secret)
      ? secrets[value.secret]
      : undefined;
    if (secret === undefined) {
      throw new ToolExecutionError(
        "missing_secret",
        `Header "${name}" needs the secret ${value.secret}: add it on the Credentials page, or set WADDLE_SECRET_${value.secret} in the server's environment.`,
      );
    }
    headers[name.toLowerCase()] = secret;
  }
  return headers;
}

async function readResponse(options: {
  response: Response;
  limit: number;
  toolName: string;
}): Promise<unknown> {
  const { response, limit } = options;
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > limit) {
    await response.body?.cancel();
    throw tooLarge(options.toolName, limit);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw tooLarge(options.toolName, limit);
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  const isJson = /[/+]json\b/i.test(response.headers.get("content-type") ?? "");
  const parsed = isJson ? parseJson(text, { reviver: protoSafeReviver }) : undefined;
  const body = parsed?.ok ? parsed.value : text;
  if (!response.ok) {
    const preview = typeof body === "string" ? body.slice(0, 300) : JSON.stringify(body).slice(0, 300);
    throw new ToolExecutionError(
      "http_error",
      `HTTP ${response.status} from ${options.toolName}: ${preview}`,
      response.status >= 500 || response.status === 429,
      {
        status: response.status,
      },
    );
  }
  if (body !== null && typeof body === "object" && !Array.isArray(body)) return body;
  return { status: response.status, body };
}

function tooLarge(toolName: string, limit: number): ToolExecutionError {
  return new ToolExecutionError(
    "response_too_large",
    `The response of ${toolName} is larger than ${limit} bytes (maxResponseBytes).`,
  );
}

function toToolError(options: {
  error: unknown;
  context: ToolRunContext;
  timeoutMs: number;
  toolName: string;
  redactor: SecretRedactor;
}): unknown {
  const { error, context } = options;
  if (error instanceof ToolExecutionError) {
    // Error bodies are quoted to the LLM: an API that echoes a secret header must not leak it there.
    const message = options.redactor.redactText(error.message);
    return message === error.message
      ? error
      : new ToolExecutionError(error.code, message, error.retryable, error.details);
  }
  if (context.signal.aborted) return error;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return new ToolExecutionError(
      "http_timeout",
      `${options.toolName} did not answer within ${options.timeoutMs} ms.`,
      true,
    );
  }
  const message =
    error instanceof Error
      ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ""}`
      : String(error);
  return new ToolExecutionError(
    "http_error",
    options.redactor.redactText(`${options.toolName} failed: ${message}`),
    true,
  );
}
