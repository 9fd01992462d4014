import { describe, expect, it } from "vitest";
import { applyBenchSection, getBenchCommand } from "./bench-doc.js";

const DOC = [
  "# Benchmarks",
  "",
  "Hand-written intro.",
  "",
  "<!-- bench:overhead:begin -->",
  "old figures",
  "<!-- bench:overhead:end -->",
  "",
  "<!-- bench:results:end -->",
  "",
  "## Analysis",
  "Hand-written analysis.",
].join("\n");

describe("applyBenchSection", () => {
  it("replaces only the text between a benchmark's markers", () => {
    const next = applyBenchSection(DOC, { name: "overhead", body: "new figures" });
    expect(next).toContain("<!-- bench:overhead:begin -->\n\nnew figures\n\n<!-- bench:overhead:end -->");
    expect(next).not.toContain("old figures");
    expect(next).toContain("Hand-written intro.");
    expect(next).toContain("Hand-written analysis.");
  });

  it("inserts a new section before the end-of-results marker, or at the end without one", () => {
    const inserted = applyBenchSection(DOC, { name: "scale", body: "scale figures" });
    expect(inserted.indexOf("scale figures")).toBeGreaterThan(inserted.indexOf("old figures"));
    expect(inserted.indexOf("scale figures")).toBeLessThan(inserted.indexOf("## Analysis"));
    expect(applyBenchSection("# Benchmarks\n", { name: "scale", body: "x" })).toBe(
      "# Benchmarks\n\n<!-- bench:scale:begin -->\n\nx\n\n<!-- bench:scale:end -->\n",
    );
  });

  it("refuses a section whose end marker is gone", () => {
    expect(() => applyBenchSection("<!-- bench:scale:begin -->\nx", { name: "scale", body: "y" })).toThrow(
      /without <!-- bench:scale:end -->/,
    );
  });
});

describe("getBenchCommand", () => {
  it("spells the npm command that reproduces a run", () => {
    expect(getBenchCommand([])).toBe("npm run bench");
    expect(getBenchCommand(["overhead", "--write"])).toBe("npm run bench -- overhead --write");
  });
});
