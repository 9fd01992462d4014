import { StartRunRequest } from "@waddle/protocol";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { parseRequest, RunIdParam } from "./validate-request.js";

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected a validation failure");
}

describe("parseRequest", () => {
  it("names the URL parameter, query parameter or body field to fix", () => {
    expect(messageOf(() => parseRequest(RunIdParam, { id: "nope" }, "params"))).toBe(
      'Fix the path parameter "id" of the URL: must be a run id such as run_4f9c2a1b.',
    );
    const Query = z.strictObject({ after: z.coerce.number().int().min(0) });
    expect(messageOf(() => parseRequest(Query, { after: "-1" }, "query"))).toMatch(
      /^Fix the query parameter "after": After is too small: at least 0\.$/,
    );
    expect(messageOf(() => parseRequest(StartRunRequest, { agentId: "a", query: 7 }, "body"))).toMatch(
      /^Fix the field "query" of the request body: Query should be text, not a number\.$/,
    );
  });

  it("speaks of the whole part for root issues and counts the others", () => {
    expect(messageOf(() => parseRequest(StartRunRequest, "text", "body"))).toBe(
      "Fix the request body: The value should be an object, not text.",
    );
    const message = messageOf(() =>
      parseRequest(StartRunRequest, { agentId: 7, query: [], admin: true }, "body"),
    );
    expect(message).toMatch(
      /^Fix the field "agentId" of the request body: .+ \(\d+ more issue\(s\) in details\.issues\)\.$/,
    );
    expect(message).not.toMatch(/Invalid the/);
  });
});
