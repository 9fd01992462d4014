import { describe, expect, it } from "vitest";
import { interpretReply } from "./interpret-reply.js";

const options = { format: "auto" as const, toolNames: new Set(["search"]) };

describe("interpretReply", () => {
  it("normalizes actions and returns legacy thoughts", () => {
    expect(interpretReply('{"thought": "t", "next_node": "search", "args": {"q": 1}}', options)).toEqual({
      ok: true,
      action: { next_node: "search", args: { q: 1 } },
      thought: "t",
      rewrites: ["legacy"],
      verbatim: false,
      notes: [{ rule: "legacy", detail: expect.stringMatching(/thought/) }],
    });
    expect(interpretReply('{"next_node": "search", "args": {}}', options)).toMatchObject({ verbatim: true });
    expect(interpretReply('Here: {"next_node": "search", "args": {}}', options)).toMatchObject({
      verbatim: false,
    });
  });

  it("turns a PlannerError into a refusal", () => {
    expect(interpretReply("no json", options)).toMatchObject({ ok: false, code: "unparseable_action" });
  });

  it("refuses a reply that stopped at the token limit, even when its JSON is complete", () => {
    const complete = '{"next_node": "final_response", "args": {"answer": "The answer is"}}';
    expect(interpretReply(complete, { ...options, finishReason: "length" })).toMatchObject({
      ok: false,
      code: "truncated_reply",
      message: expect.stringMatching(/token limit.*none of it was run/),
    });
    expect(interpretReply(complete, { ...options, finishReason: "stop" })).toMatchObject({ ok: true });
    const argFill = { node: "search", args: { topic: "a" } };
    expect(interpretReply('{"q": "x"}', { ...options, argFill, finishReason: "length" })).toMatchObject({
      ok: false,
      code: "truncated_reply",
    });
  });

  it("never fills args from a reply cut off mid-object", () => {
    const argFill = { node: "search", args: { topic: "a" } };
    expect(interpretReply('{"q": "unterminated', { ...options, argFill })).toMatchObject({
      ok: false,
      code: "truncated_reply",
    });
  });

  it("merges an arg-fill reply of bare fields or {args}, and takes a whole action as such", () => {
    const argFill = { node: "search", args: { topic: "a" } };
    expect(interpretReply('{"q": "x"}', { ...options, argFill })).toMatchObject({
      ok: true,
      action: { next_node: "search", args: { topic: "a", q: "x" } },
    });
    expect(interpretReply('{"args": {"q": "y"}}', { ...options, argFill })).toMatchObject({
      action: { args: { topic: "a", q: "y" } },
    });
    expect(
      interpretReply('{"next_node": "final_response", "args": {"answer": "z"}}', { ...options, argFill }),
    ).toMatchObject({
      action: { next_node: "final_response" },
    });
  });
});
