import { ConflictDetails, ErrorBody, parseJson } from "@waddle/protocol";
import type { z } from "zod";
import { ApiError } from "./api-error.js";

export interface ApiClientOptions {
  /** Prefix of every route; the designer is served on the API's origin, so "" by default. */
  baseUrl?: string;
  getToken: () => string | null;
  /** Called on a 401: resolve true once a new token is stored, to retry the request once. */
  onUnauthorized?: () => Promise<boolean>;
  fetch?: typeof fetch;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What every resource module of the client sends its requests through. */
export interface ApiRequester {
  /** Sends a request and checks the JSON answer against `schema` (the boundary). */
  json<T>(method: HttpMethod, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T>;
  /** Sends a request and hands back the raw answer (for text, files and empty answers). */
  request(method: HttpMethod, path: string, body?: unknown): Promise<Response>;
}

/**
 * The one place that talks HTTP: the token on every request, one retry after a 401 once a new token is
 * stored, the server's `{code, message, details}` (a conflict's details parsed) turned into `ApiError`,
 * and `invalid_response` / `network_error` for what goes wrong before a well-formed answer arrives.
 */
export function createApiRequester(options: ApiClientOptions): ApiRequester {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);

  const request = async (
    method: HttpMethod,
    path: string,
    body?: unknown,
    retried = false,
  ): Promise<Response> => {
    const headers: Record<string, string> = { accept: "application/json" };
    const token = options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetcher(`${options.baseUrl ?? ""}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new ApiError(
        "network_error",
        `Cannot reach the Waddle server (${(error as Error).message}). Is it running?`,
        0,
      );
    }
    if (response.ok) return response;
    if (response.status === 401 && !retried && options.onUnauthorized && (await options.onUnauthorized())) {
      return request(method, path, body, true);
    }
    throw await getResponseError(response);
  };

  return {
    request: (method, path, body) => request(method, path, body),
    async json(method, path, schema, body) {
      const response = await request(method, path, body);
      const parsed = schema.safeParse(await readJson(response));
      if (!parsed.success) {
        throw new ApiError(
          "invalid_response",
          `The server's answer to ${method} ${path} has an unexpected shape: ${parsed.error.issues[0]?.message ?? "unknown"}.`,
          response.status,
          parsed.error.issues,
        );
      }
      return parsed.data;
    },
  };
}

/** A route with every interpolated value URL-encoded: route`/api/runs/${id}/events`. */
export function route(parts: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  return parts.reduce(
    (path, part, index) =>
      index === 0 ? part : `${path}${encodeURIComponent(String(values[index - 1]))}${part}`,
    "",
  );
}

/** The path with its query string, when the query has any parameter. */
export function withQuery(path: string, query: URLSearchParams): string {
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

async function getResponseError(response: Response): Promise<ApiError> {
  const payload = await readJson(response).catch(() => undefined);
  const parsed = ErrorBody.safeParse(payload);
  if (!parsed.success) {
    return new ApiError(
      "internal",
      `The server answered ${response.status} ${response.statusText}.`,
      response.status,
    );
  }
  const { code, message, details } = parsed.data;
  if (code === "conflict") {
    const conflict = ConflictDetails.safeParse(details);
    return new ApiError(code, message, response.status, conflict.success ? conflict.data : details);
  }
  return new ApiError(code, message, response.status, details);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  const parsed = parseJson(text);
  if (parsed.ok) return parsed.value;
  throw new ApiError(
    "invalid_response",
    `The server sent something that is not JSON (status ${response.status}).`,
    response.status,
  );
}
