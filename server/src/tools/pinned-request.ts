import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { Readable } from "node:stream";
import type { ResolvedAddress } from "./resolve-allowed-address.js";
import { getOutgoingTraceparent } from "./tool-trace-scope.js";

/** Statuses whose responses have no body (a `Response` refuses one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export interface PinnedRequestInit {
  method: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  signal: AbortSignal;
}

/**
 * One HTTP request to `url` over a connection to `target`, the address that was checked: the name stays in
 * the Host header and, for https, in TLS (SNI and certificate checks), but no second DNS lookup happens.
 * Redirects are not followed. Answers with a fetch `Response` whose body streams.
 */
export function requestPinned(url: URL, init: PinnedRequestInit, target: ResolvedAddress): Promise<Response> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    const request = send(
      url,
      {
        method: init.method,
        headers: withTraceparent({ ...init.headers, host: url.host }),
        lookup,
        family: target.family,
        signal: init.signal,
      },
      (response) => {
        try {
          resolve(toResponse(response, init.method));
        } catch (error) {
          response.destroy();
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      },
    );
    request.on("error", reject);
    request.end(init.body);
  });
}

function toResponse(response: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`the server answered with HTTP status ${status}`);
  const empty = NULL_BODY_STATUSES.has(status) || method === "HEAD";
  if (empty) response.resume();
  return new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
    status,
    statusText: response.statusMessage ?? "",
    headers,
  });
}

/** A traced tool call's requests carry its span's `traceparent`, unless the tool set one itself. */
function withTraceparent(headers: Record<string, string>): Record<string, string> {
  const traceparent = getOutgoingTraceparent();
  if (!traceparent || Object.keys(headers).some((name) => name.toLowerCase() === "traceparent"))
    return headers;
  return { ...headers, traceparent };
}
