import { describe, expect, it } from "vitest";
import { readImportText } from "./read-import-text.js";

describe("readImportText", () => {
  it("is empty for blank text", () => {
    expect(readImportText("  \n")).toEqual({ kind: "empty" });
  });

  it("says where JSON broke", () => {
    const result = readImportText('{"id": ');
    expect(result.kind).toBe("invalid");
    expect(result.kind === "invalid" && result.error).toMatch(/^Not valid JSON: /);
  });

  it.each([
    ["5", "a number"],
    ["null", "null"],
    ['"hints"', "a string"],
    ["[1, 2]", "a list"],
  ])("refuses %s, which is not an object", (text, got) => {
    const result = readImportText(text);
    expect(result).toEqual({
      kind: "invalid",
      error: `This is ${got}; an import is a JSON object: an agent spec or a planning_hints dict.`,
    });
  });

  it("tells a spec from bare and wrapped planning hints", () => {
    expect(readImportText('{"version": 1, "id": "a", "name": "A"}').kind).toBe("spec");
    expect(readImportText("{}").kind).toBe("spec");
    expect(readImportText('{"prefer_nodes": ["a"]}')).toEqual({
      kind: "hints",
      value: { prefer_nodes: ["a"] },
      hints: { prefer_nodes: ["a"] },
    });
    expect(readImportText('{"planning_hints": {"ordering_hints": ["a", "b"]}}')).toMatchObject({
      kind: "hints",
      hints: { ordering_hints: ["a", "b"] },
    });
  });
});
