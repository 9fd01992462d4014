import { describe, expect, it } from "vitest";
import { getFuzzyScore, getPaletteMatches, type PaletteEntry } from "./get-palette-matches.js";

const entries: PaletteEntry[] = [
  { id: "c:auto-layout", group: "Commands", label: "Auto-layout" },
  { id: "c:save", group: "Commands", label: "Save" },
  { id: "n:parse_documents", group: "Nodes", label: "parse_documents", detail: "mock" },
  { id: "t:http", group: "Tools", label: "New HTTP tool" },
  { id: "a:support", group: "Agents", label: "Support triage", detail: "support-triage" },
];

describe("command palette matching", () => {
  it("matches characters in order, case-insensitive, and refuses out-of-order ones", () => {
    expect(getFuzzyScore("autlay", "Auto-layout")).not.toBeNull();
    expect(getFuzzyScore("PARSE", "parse_documents")).not.toBeNull();
    expect(getFuzzyScore("yalotua", "Auto-layout")).toBeNull();
    expect(getFuzzyScore("xyz", "Save")).toBeNull();
  });

  it("ranks a substring above a scattered match and a word start above a mid-word one", () => {
    const substring = getFuzzyScore("doc", "parse_documents") ?? -1;
    const scattered = getFuzzyScore("pdc", "parse_documents") ?? -1;
    expect(substring).toBeGreaterThan(scattered);
    expect(getFuzzyScore("lay", "Auto-layout") ?? -1).toBeGreaterThan(
      getFuzzyScore("ayo", "Auto-layout") ?? -1,
    );
  });

  it("lists everything for an empty query, commands first, and filters by label and detail", () => {
    expect(getPaletteMatches(entries, { query: "" }).map((entry) => entry.group)).toEqual([
      "Commands",
      "Commands",
      "Nodes",
      "Tools",
      "Agents",
    ]);
    expect(getPaletteMatches(entries, { query: "triage" }).map((entry) => entry.id)).toEqual(["a:support"]);
    expect(getPaletteMatches(entries, { query: "mock" }).map((entry) => entry.id)).toEqual([
      "n:parse_documents",
    ]);
    expect(getPaletteMatches(entries, { query: "http" })[0]?.id).toBe("t:http");
    expect(getPaletteMatches(entries, { query: "", limit: 2 })).toHaveLength(2);
  });
});
