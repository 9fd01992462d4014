import { describe, expect, it } from "vitest";
import { getPathValue, getTemplatePaths, renderTemplate } from "./render-template.js";

const scope = {
  args: { topic: "tides", k: 3, tags: ["a", "b"] },
  query: "why tides?",
  last: { docs: [{ title: "Moon" }] },
  steps: { search: { hits: 2 } },
  call: 1,
};

describe("renderTemplate", () => {
  it("substitutes a whole placeholder with the raw value", () => {
    expect(renderTemplate("{{args.tags}}", scope)).toEqual(["a", "b"]);
    expect(renderTemplate("{{ args.k }}", scope)).toBe(3);
    expect(renderTemplate("{{missing.path}}", scope)).toBeNull();
  });

  it("interpolates placeholders inside text", () => {
    expect(renderTemplate("{{args.topic}} x{{args.k}} {{last.docs[0].title}}", scope)).toBe("tides x3 Moon");
    expect(renderTemplate("tags: {{args.tags}}", scope)).toBe('tags: ["a","b"]');
    expect(renderTemplate("[{{nothing}}]", scope)).toBe("[]");
  });

  it("renders nested objects and arrays and leaves other values alone", () => {
    expect(
      renderTemplate({ a: ["{{query}}", 1, null, true], b: { c: "{{steps.search.hits}}" } }, scope),
    ).toEqual({
      a: ["why tides?", 1, null, true],
      b: { c: 2 },
    });
  });

  it("never walks prototypes or writes dangerous keys", () => {
    expect(getPathValue(scope, "args.constructor")).toBeUndefined();
    expect(getPathValue(scope, "__proto__")).toBeUndefined();
    const rendered = renderTemplate(JSON.parse('{"__proto__": {"polluted": 1}, "ok": 1}'), scope) as object;
    expect(rendered).toEqual({ ok: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("lists the paths a template reads", () => {
    expect(getTemplatePaths({ a: "{{args.x}} and {{query}}", b: ["{{last.y[0]}}"] }).sort()).toEqual([
      "args.x",
      "last.y[0]",
      "query",
    ]);
  });
});
