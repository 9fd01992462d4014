import { AsyncLocalStorage } from "node:async_hooks";
import type { NextFunction, Request, Response } from "express";

const current = new AsyncLocalStorage<Response>();

/**
 * The first middleware of the app: everything a request leads to (route handlers, the MCP SDK's tool
 * calls, the runs they start) can ask which response it serves, and so who asked (`actorOf`).
 */
export function bindRequestContext(_request: Request, response: Response, next: NextFunction): void {
  current.run(response, next);
}

/** The response of the request being served here; undefined outside any request (a worker, a timer). */
export function currentResponse(): Response | undefined {
  return current.getStore();
}

/**
 * Runs `work` outside any request's context: what it schedules (a rate limiter's expiry timer, a cache's
 * refresh) then keeps no request's response alive for as long as it lives.
 */
export function outsideRequestContext<T>(work: () => T): T {
  return current.exit(work);
}
