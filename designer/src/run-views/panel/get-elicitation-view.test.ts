import { describe, expect, it } from "vitest";
import { getElicitationView } from "./get-elicitation-view.js";

describe("getElicitationView", () => {
  it("reads an MCP server's question, its fields and the last answer's problem", () => {
    expect(
      getElicitationView({
        kind: "mcp_elicitation",
        server: "shop",
        tool: "refund",
        message: "Refund 20 EUR?",
        requestedSchema: {
          type: "object",
          properties: {
            approve: { type: "boolean", description: "Make the refund" },
            reason: { type: "string" },
          },
          required: ["approve"],
        },
        howToAnswer: 'Resume with "approve" and userInput: a JSON object with "approve", "reason".',
        problem: '"approve" is required',
      }),
    ).toEqual({
      server: "shop",
      question: "Refund 20 EUR?",
      fields: [
        { name: "approve", description: "Make the refund", required: true },
        { name: "reason", description: "string", required: false },
      ],
      howToAnswer: 'Resume with "approve" and userInput: a JSON object with "approve", "reason".',
      problem: '"approve" is required',
    });
  });

  it("is null for other pauses", () => {
    expect(getElicitationView({ tool: "send_email", args: {} })).toBeNull();
    expect(getElicitationView(undefined)).toBeNull();
  });
});
