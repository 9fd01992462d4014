import { ToolTestRequest } from "@waddle/protocol";
import { Router } from "express";
import type { ToolTester } from "../runs/tool-tester.js";
import { parseRequest } from "./validate-request.js";

/** `POST /api/tools/test`: one tool called once through the real executor (the designer's **Run tool**). */
export function createToolTestRoutes(options: { tester: ToolTester }): Router {
  const router = Router();
  router.post("/test", async (request, response) => {
    const body = parseRequest(ToolTestRequest, request.body, "body");
    // A client that goes away stops the call (and its retries).
    const controller = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) controller.abort(new Error("The client went away."));
    });
    response.json(await options.tester(body, controller.signal));
  });
  return router;
}
