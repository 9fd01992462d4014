import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { bindRequestContext, currentResponse, outsideRequestContext } from "./request-context.js";

/** What a timer scheduled here sees as the current response when it fires. */
const seenByTimer = () =>
  new Promise<Response | undefined>((resolve) => {
    setTimeout(() => resolve(currentResponse()), 0);
  });

describe("outsideRequestContext", () => {
  it("keeps a timer scheduled inside a request from holding that request's response", async () => {
    const response = { locals: {} } as unknown as Response;
    const seen = await new Promise<[Response | undefined, Response | undefined]>((resolve) => {
      const next: NextFunction = () => {
        void Promise.all([seenByTimer(), outsideRequestContext(seenByTimer)]).then(resolve);
      };
      bindRequestContext({} as Request, response, next);
    });
    expect(seen[0]).toBe(response);
    expect(seen[1]).toBeUndefined();
  });
});
