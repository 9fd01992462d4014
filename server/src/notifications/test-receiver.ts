import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SIGNATURE_HEADER } from "@waddle/protocol";
import { verifySignature } from "./signature.js";

/** One request a test receiver got, with what it answered. */
export interface ReceivedRequest {
  body: string;
  json: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  /** The signature checked with the receiver's secret (when it has one). */
  verified: boolean;
  answered: number | "hung";
}

/**
 * A webhook target for tests, on 127.0.0.1: it verifies `Waddle-Signature` with its secret, answers each
 * request with `answer(n)` (the n-th request, from 1: a status, or `hang` to never answer), and lets a
 * test wait for the n-th request without sleeping.
 */
export interface TestReceiver {
  url: string;
  /** `127.0.0.1:<port>`, for the HTTP allow-list. */
  hostEntry: string;
  received: ReceivedRequest[];
  /** Resolves once `count` requests came in (at once when they already did). */
  waitFor(count: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startTestReceiver(options: {
  secret?: string;
  answer?: (index: number) => number | "hang";
}): Promise<TestReceiver> {
  const received: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: (requests: ReceivedRequest[]) => void }[] = [];
  const hung: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      const header = request.headers[SIGNATURE_HEADER.toLowerCase()];
      const answer = options.answer?.(received.length + 1) ?? 200;
      received.push({
        body: raw.toString("utf8"),
        json: JSON.parse(raw.toString("utf8")) as Record<string, unknown>,
        headers: request.headers,
        verified:
          options.secret !== undefined &&
          verifySignature({
            secret: options.secret,
            header: typeof header === "string" ? header : undefined,
            body: raw,
          }).ok,
        answered: answer === "hang" ? "hung" : answer,
      });
      if (answer === "hang") hung.push(response);
      else response.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "no");
      for (const waiter of waiters.filter((item) => received.length >= item.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(received.slice());
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/waddle`,
    hostEntry: `127.0.0.1:${port}`,
    received,
    waitFor: (count) =>
      received.length >= count
        ? Promise.resolve(received.slice())
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      for (const response of hung) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
