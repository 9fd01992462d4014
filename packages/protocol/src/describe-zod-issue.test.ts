import { z } from "zod";
import { describe, expect, it } from "vitest";
import { describeZodIssue, getFieldLabel } from "./describe-zod-issue.js";
import { validateAgentSpec } from "./validate-agent-spec.js";

const describeFirst = (schema: z.ZodType, value: unknown): string => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected a failure");
  const issue = parsed.error.issues[0]!;
  const at = issue.path.reduce<unknown>(
    (current, key) => (current as Record<PropertyKey, unknown> | undefined)?.[key],
    value,
  );
  return describeZodIssue(issue, at);
};

describe("describeZodIssue", () => {
  it("says what is wrong in plain words, naming the field", () => {
    const Spec = z.object({ name: z.string().min(1).max(200) });
    expect(describeFirst(Spec, { name: "x".repeat(201) })).toBe("Name is too long: at most 200 characters.");
    expect(describeFirst(Spec, { name: "" })).toBe("Name cannot be empty.");
    expect(
      describeFirst(z.object({ sampleQueries: z.array(z.string()).max(2) }), {
        sampleQueries: ["a", "b", "c"],
      }),
    ).toBe("Sample queries has too many items: at most 2.");
    expect(describeFirst(z.object({ hopBudget: z.int().min(1) }), { hopBudget: 0 })).toBe(
      "Hop budget is too small: at least 1.",
    );
    expect(describeFirst(z.object({ query: z.string() }), {})).toBe("Query is missing.");
    expect(describeFirst(z.object({ query: z.string() }), { query: 7 })).toBe(
      "Query should be text, not a number.",
    );
    expect(describeFirst(z.object({ mode: z.enum(["a", "b"]) }), { mode: "c" })).toBe(
      'Mode must be one of "a", "b".',
    );
  });

  it("keeps messages a schema's author wrote", () => {
    const Id = z.object({ id: z.string().regex(/^run_/, "must be a run id such as run_4f9c2a1b") });
    expect(describeFirst(Id, { id: "x" })).toBe("must be a run id such as run_4f9c2a1b.");
  });

  it("labels list items by their list", () => {
    expect(getFieldLabel(["sampleQueries", 2])).toBe("Item 3 of sample queries");
    expect(getFieldLabel([])).toBe("The value");
    expect(getFieldLabel(["budget_hints", "max_cost_usd"])).toBe("Max cost usd");
  });
});

describe("validateAgentSpec messages", () => {
  it("never shows zod's raw text such as 'Too big: expected string to have <=200 characters'", () => {
    const result = validateAgentSpec({
      version: 1,
      id: "a",
      name: "n".repeat(5000),
      description: "d".repeat(100_000),
      tools: [],
    });
    expect(result.ok).toBe(false);
    const messages = result.issues.map((issue) => issue.message);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) {
      expect(message).not.toMatch(/Too (big|small): expected|Invalid input: expected|<=|>=/);
    }
    expect(messages.some((message) => /^Name is too long: at most \d+ characters\.$/.test(message))).toBe(
      true,
    );
  });
});

describe("a tool's default that does not fit its field", () => {
  it("says why in plain words", () => {
    const result = validateAgentSpec({
      version: 1,
      id: "a",
      name: "A",
      tools: [
        {
          name: "t",
          argsSchema: {
            type: "object",
            properties: { city: { type: "string", maxLength: 3, default: "Paris" } },
          },
          impl: { kind: "mock", output: {} },
        },
      ],
    });
    const issue = result.issues.find((candidate) => candidate.code === "invalid_default");
    expect(issue?.message).toContain("(City is too long: at most 3 characters)");
    expect(issue?.message).not.toMatch(/Too big|<=/);
  });
});
