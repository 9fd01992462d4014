import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  extractLinks,
  findBrokenLinks,
  formatBrokenLinks,
  getAnchors,
  getGithubSlug,
  listDocFiles,
} from "./check-doc-links.js";

describe("GitHub heading slugs", () => {
  it.each([
    ["Sessions: many turns with one agent", "sessions-many-turns-with-one-agent"],
    ["`WADDLE_TOKEN` and keys", "waddle_token-and-keys"],
    ["Fork: run again from any step", "fork-run-again-from-any-step"],
    ["A2A agents as tools", "a2a-agents-as-tools"],
    [
      "Observability: OpenTelemetry traces and Prometheus metrics",
      "observability-opentelemetry-traces-and-prometheus-metrics",
    ],
    ["Test one tool, catch mistakes early, lose nothing", "test-one-tool-catch-mistakes-early-lose-nothing"],
    ["The [designer](designer.md) page", "the-designer-page"],
    ["What's **new**?", "whats-new"],
    ["Run / resume — the API", "run--resume--the-api"],
  ])("%s → %s", (heading, slug) => {
    expect(getGithubSlug(heading)).toBe(slug);
  });

  it("numbers repeated headings and reads explicit ids", () => {
    const anchors = getAnchors(
      '# Notes\n\n## Notes\n\ntext <a id="here"></a>\n\n```\n# not a heading\n```\n',
    );
    expect([...anchors]).toEqual(["notes", "notes-1", "here"]);
  });
});

describe("links in Markdown", () => {
  it("finds inline links, images and definitions, but nothing in code", () => {
    const markdown = [
      'See [the guide](guides/chat.md#sessions) and ![shot](images/a.png "A run").',
      "Not `[this](nowhere.md)`, nor:",
      "```md",
      "[that](nowhere.md)",
      "```",
      "[ref]: reference/cli.md",
      '<img src="images/b.png" alt="">',
    ].join("\n");
    expect(extractLinks(markdown)).toEqual([
      { target: "guides/chat.md#sessions", line: 1 },
      { target: "images/a.png", line: 1 },
      { target: "reference/cli.md", line: 6 },
      { target: "images/b.png", line: 7 },
    ]);
  });
});

describe("broken links", () => {
  it("are a missing file, a missing heading or an absolute path; the rest resolve", () => {
    const root = mkdtempSync(path.join(tmpdir(), "doc-links-"));
    try {
      mkdirSync(path.join(root, "guides"));
      writeFileSync(path.join(root, "guides", "chat.md"), "# Chat\n\n## In a terminal\n");
      writeFileSync(
        path.join(root, "README.md"),
        [
          "[ok](guides/chat.md#in-a-terminal) [folder](guides/) [here](#top) [web](https://example.com/x.md)",
          "[gone](guides/fork.md) [no heading](guides/chat.md#in-the-designer) [absolute](/guides/chat.md)",
          "# Top",
        ].join("\n"),
      );
      const broken = findBrokenLinks(["README.md", "guides/chat.md"], root);
      expect(broken.map((link) => [link.line, link.target])).toEqual([
        [2, "guides/fork.md"],
        [2, "guides/chat.md#in-the-designer"],
        [2, "/guides/chat.md"],
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the repository's docs", () => {
  it("include the README, CONTRIBUTING, docs/ and the packages' docs folders", () => {
    const files = listDocFiles();
    expect(files).toContain("README.md");
    expect(files).toContain("CONTRIBUTING.md");
    expect(files).toContain("docs/README.md");
    expect(files.some((file) => file.startsWith("server/docs/"))).toBe(true);
    expect(files.some((file) => file.startsWith("packages/planner/docs/"))).toBe(true);
  });

  it("have no relative link to a missing file or heading", () => {
    const broken = findBrokenLinks(listDocFiles());
    expect(broken.length, `broken links:\n${formatBrokenLinks(broken)}`).toBe(0);
  });
});
