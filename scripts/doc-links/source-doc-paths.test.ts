import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkSourceDocPath, findBadSourceDocPaths, findSourceDocPaths } from "./find-source-doc-paths.js";

describe("docs paths in user-visible strings", () => {
  it("every one the server, designer, planner and CLI name is a page of the docs tree that exists", () => {
    const named = findSourceDocPaths();
    // The ones this test was written for: access refusals and unknown routes.
    expect(named.map((found) => found.path)).toEqual(
      expect.arrayContaining(["docs/guides/access.md#roles", "docs/reference/rest-routes.md"]),
    );
    const bad = findBadSourceDocPaths().map(
      (found) => `${found.file}:${found.line} ${found.path} ${found.reason}`,
    );
    expect(bad).toEqual([]);
  });

  it("reads strings, template parts and JSX text, never comments", () => {
    const root = mkdtempSync(path.join(tmpdir(), "source-doc-paths-"));
    try {
      mkdirSync(path.join(root, "src"));
      mkdirSync(path.join(root, "docs"));
      writeFileSync(path.join(root, "docs/page.md"), "# Page\n\n## Roles\n");
      writeFileSync(
        path.join(root, "src/a.tsx"),
        [
          "// see server/docs/ignored.md",
          "/** and packages/x/README.md */",
          'const a = "see server/docs/access.md";',
          "const b = `see docs/page.md#roles for ${a}, and server/README.md`;",
          "const c = <p>Read docs/missing.md first</p>;",
          'const d = { "README.md": "the exported project\'s own" };',
        ].join("\n"),
      );
      const found = findSourceDocPaths(root, ["src"]);
      expect(found.map(({ line, path: named }) => [line, named])).toEqual([
        [3, "server/docs/access.md"],
        [4, "docs/page.md#roles"],
        [4, "server/README.md"],
        [5, "docs/missing.md"],
      ]);
      expect(found.map((item) => checkSourceDocPath(item.path, root))).toEqual([
        expect.stringContaining("repository path"),
        undefined,
        expect.stringContaining("repository path"),
        "does not exist",
      ]);
      expect(checkSourceDocPath("docs/page.md#nowhere", root)).toBe("has no heading #nowhere");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
