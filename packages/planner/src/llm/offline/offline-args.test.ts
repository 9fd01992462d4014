import { describe, expect, it } from "vitest";
import { fillOfflineArgs, matchesSchema } from "./offline-args.js";

const query = "How do I reset two-factor authentication on my account?";

describe("fillOfflineArgs", () => {
  it("prefers earlier observations (newest first, type-checked, one level down)", () => {
    const args = fillOfflineArgs({
      argsSchema: {
        type: "object",
        properties: {
          text: { type: "string" },
          count: { type: "integer" },
          route: { type: "string", enum: ["a", "b"] },
        },
      },
      query,
      observations: [
        { tool: "newest", value: { count: "not a number", meta: { text: "nested text" }, route: "c" } },
        { tool: "older", value: { count: 4, route: "b" } },
      ],
    });
    expect(args).toEqual({ text: "nested text", count: 4, route: "b" });
  });

  it("uses defaults, the query for free-text fields, enums the query mentions, and examples", () => {
    const args = fillOfflineArgs({
      argsSchema: {
        type: "object",
        properties: {
          k: { type: "integer", default: 3 },
          question: { type: "string" },
          topic: { type: "string", enum: ["billing", "account", "technical"] },
          locale: { type: "string", examples: ["en-GB"] },
          mode: { type: "string", enum: ["fast", "slow"] },
        },
      },
      query,
      observations: [],
    });
    expect(args).toEqual({ k: 3, question: query, topic: "account", locale: "en-GB", mode: "fast" });
  });

  it("takes a person's name the query mentions, not a calendar word", () => {
    const schema = { type: "object", properties: { name: { type: "string", examples: ["Dana"] } } };
    expect(
      fillOfflineArgs({
        argsSchema: schema,
        query: "Tell Sam the launch moved to Thursday",
        observations: [],
      }),
    ).toEqual({ name: "Sam" });
    expect(fillOfflineArgs({ argsSchema: schema, query: "Remind me on Monday", observations: [] })).toEqual({
      name: "Dana",
    });
  });

  it("leaves optional fields without a source out, and forces required ones only when asked", () => {
    const schema = {
      type: "object",
      properties: {
        note: { type: "number" },
        limit: { type: "integer", minimum: 1 },
        tags: { type: "array" },
        to: { type: "string", format: "email" },
        link: { type: "string", format: "uri" },
        title: { type: "string" },
      },
      required: ["limit", "tags", "to", "link", "title"],
    };
    expect(fillOfflineArgs({ argsSchema: schema, query, observations: [] })).toEqual({
      to: "someone@example.com",
      link: "https://example.com/",
      title: query,
    });
    expect(fillOfflineArgs({ argsSchema: schema, query, observations: [], forceRequired: true })).toEqual({
      limit: 1,
      tags: [],
      to: "someone@example.com",
      link: "https://example.com/",
      title: query,
    });
  });
});

describe("matchesSchema", () => {
  it("checks type, enum, const, unions and array items", () => {
    expect(matchesSchema(3, { type: "integer" })).toBe(true);
    expect(matchesSchema(3.5, { type: "integer" })).toBe(false);
    expect(matchesSchema("x", { type: ["number", "string"] })).toBe(true);
    expect(matchesSchema("c", { enum: ["a", "b"] })).toBe(false);
    expect(matchesSchema(1, { anyOf: [{ type: "string" }, { type: "number" }] })).toBe(true);
    expect(matchesSchema(["a"], { type: "array", items: { type: "object" } })).toBe(false);
    expect(matchesSchema({}, { type: "object" })).toBe(true);
    expect(matchesSchema(undefined, {})).toBe(false);
  });
});
